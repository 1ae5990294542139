// utf8text.c: see utf8text.h.

#include "utf8text.h"

size_t rb_badutf8(const unsigned char *s, size_t length) {
    size_t i = 0;
    while (i < length) {
        unsigned char c = s[i];
        if (c < 0x80) { i++; continue; }
        size_t n = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;   /* continuation bytes */
        if (c < 0xC2 || c > 0xF4 || length - i <= n) return i + 1;
        /* The second byte's range is what rules out overlong forms (after
         * E0, F0), surrogates (after ED) and code points above U+10FFFF
         * (after F4). */
        unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
        unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
        if (s[i + 1] < lo || s[i + 1] > hi) return i + 1;
        for (size_t j = 2; j <= n; j++)
            if ((s[i + j] & 0xC0) != 0x80) return i + 1;
        i += n + 1;
    }
    return 0;
}
