// A fast path for the URL constructor: the WHATWG URL parser of Ada
// (https://github.com/ada-url/ada), the one Node.js uses, called through the C
// API that Debian's libnode108 exports. The URL classes stay whatwg-url's
// (js/url.js, bundled by js_deps/build_url.sh); js_deps/url_fast.js builds
// their URL record from what Ada parsed, for the inputs it hands here.
#pragma once

#include <v8.h>

namespace hostloop::runtime {

// host.urlParse(input, base, components) -> href | undefined: parses `input`
// (a string) against `base` (a string, or undefined for none). On success,
// returns the serialized URL and writes Ada's eight component offsets into
// `components` (a Uint32Array of 8: protocol end, username end, host start,
// host end, port, pathname start, search start, hash start; 0xFFFFFFFF for
// an absent port, search or hash). Undefined when the input (or the base)
// does not parse, or when libnode does not export Ada's C API.
void UrlParse(const v8::FunctionCallbackInfo<v8::Value>& info);

// Whether libnode exports Ada's C API (host.urlParserAvailable()).
void UrlParserAvailable(const v8::FunctionCallbackInfo<v8::Value>& info);
bool UrlParserLinked();

}  // namespace hostloop::runtime
