// A fast path for the URL constructor: the WHATWG URL parser of Ada
// (https://github.com/ada-url/ada), the one Node.js uses, called through the C
// API that Debian's libnode108 exports. The URL classes stay whatwg-url's
// (js/url.js, bundled by js_deps/build_url.sh); js_deps/url_entry.js builds
// their URL record from what Ada parsed, for the inputs FastPathAllows.
#pragma once

#include <v8.h>

#include <string_view>

namespace hostloop::runtime {

// Whether an input (or base) takes Ada's fast path: shorter than 64 KiB and
// made only of URL-safe ASCII characters (A-Z a-z 0-9 and -._~:/?#[]@!$&'()*+,;=%),
// without "xn--" in any case. That leaves out what the URL Standard changed
// since libnode108's Ada was released (spaces before a query or fragment of
// an opaque path, "^" in a path, ...), whatever needs percent-encoding or
// IDNA, and punycode labels (their validation); UTF-8 of anything
// non-ASCII fails it. (A scan here, not two regular expressions in JS:
// ~10% of a short `new URL`.)
bool FastPathAllows(std::string_view text);

// host.urlParse(input, base, components) -> href | undefined: parses `input`
// (a string) against `base` (a string, or undefined for none). On success,
// returns the serialized URL and writes Ada's eight component offsets into
// `components` (a Uint32Array of 8: protocol end, username end, host start,
// host end, port, pathname start, search start, hash start; 0xFFFFFFFF for
// an absent port, search or hash). Undefined when the input (or the base)
// is not one FastPathAllows or does not parse, or when libnode does not
// export Ada's C API.
void UrlParse(const v8::FunctionCallbackInfo<v8::Value>& info);

// Whether libnode exports Ada's C API (host.urlParserAvailable()).
void UrlParserAvailable(const v8::FunctionCallbackInfo<v8::Value>& info);
bool UrlParserLinked();

}  // namespace hostloop::runtime
