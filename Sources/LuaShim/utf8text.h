// utf8text.h: internal to LuaShim. Whether bytes are UTF-8 text.
//
// Strings that leave the kernel as data (emitted params, which histories
// and findings save as JSON; the names in animation plans, which charts and
// conflict checks read in Swift) must be text: Swift would read a bad byte
// as U+FFFD, and two different strings could then compare equal.

#ifndef RULEBENCH_UTF8TEXT_H
#define RULEBENCH_UTF8TEXT_H

#include <stddef.h>

/// The position (from 1) of the first byte that is not part of well-formed
/// UTF-8, or 0 when every byte is. Well-formed as Swift and Lua's `utf8`
/// library (strict) read it: no overlong forms, no surrogates, nothing
/// above U+10FFFF.
size_t rb_badutf8(const unsigned char *bytes, size_t length);

#endif
