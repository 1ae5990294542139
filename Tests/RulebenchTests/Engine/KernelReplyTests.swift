import XCTest
@testable import Rulebench

/// `KernelReply`: a reply that is not what the protocol says is an internal
/// error naming the call and the field, never a default.
final class KernelReplyTests: XCTestCase {
    private func reply(_ value: StateValue, _ entry: KernelEntry = .fuzz) throws -> KernelReply {
        try KernelReply(entry, Wire.encode(value))
    }

    func testAMissingFieldNamesTheCallAndTheField() throws {
        let finding = StateValue.table([.string("what"): .string("after")])
        let value = try reply(.table([.string("finding"): finding]))
        XCTAssertThrowsError(try value.field("finding").string("property")) { error in
            XCTAssertEqual("\(error)", "internal error in the engine: the reply of 'fuzz' has field 'finding.property' nothing")
        }
    }

    func testAWordThisSideDoesNotKnowIsAnErrorNotAFallback() throws {
        let value = try reply(.table([.string("property"): .string("undoRestoresTheState")]))
        XCTAssertThrowsError(try value.field("property").decode(KernelWords.Property.self)) { error in
            XCTAssertTrue("\(error)".contains("field 'property' 'undoRestoresTheState', which this side does not know"), "\(error)")
        }
        XCTAssertEqual(try reply(.table([.string("property"): .string("undoRestores")])).field("property")
            .decode(KernelWords.Property.self).property, .undoRestores)
    }

    func testAListItemOfTheWrongTypeIsNamedByItsPlace() throws {
        let value = try reply(.table([.string("trace"): .list([.string("ab"), .int(3)])]))
        XCTAssertThrowsError(try value.field("trace").list().map { item throws(RulebenchError) in try item.string() }) { error in
            XCTAssertTrue("\(error)".contains("the reply of 'fuzz' has field 'trace.2' 3, not a string"), "\(error)")
        }
    }

    func testBytesThatDoNotDecodeAreAnError() {
        XCTAssertThrowsError(try KernelReply(.legal, [0xff, 0x00])) { error in
            XCTAssertTrue("\(error)".contains("the reply of 'legal' has bytes that do not decode"), "\(error)")
        }
    }
}
