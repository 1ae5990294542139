// FNV-1a over text: the names of corpus entries. Invariant: the same text
// gives the same name in every process and on every machine (no hash seed).

/// FNV-1a over text: stable file names for corpus entries.
struct StableHasher {
    private var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ text: String) {
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
