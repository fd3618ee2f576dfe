// data: URLs (RFC 2397, as the Fetch standard reads them): modules and
// worker scripts written inline, `import 'data:text/javascript,...'` and
// `new Worker('data:text/javascript,...', {type: 'module'})`, as node, deno
// and browsers load them. A data: URL has no hierarchy, so nothing resolves
// relative to it: what such a module imports must be an absolute URL.
// V8-free.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace hostloop::runtime {

// Whether `url` has the data: scheme (ASCII case-insensitive).
bool IsDataUrl(std::string_view url);

// What a data: URL holds: the essence of its MIME type ("text/javascript",
// lowercase, parameters dropped) and its body bytes.
struct DataUrlContents {
  std::string mime_essence;
  std::string body;
};

// https://fetch.spec.whatwg.org/#data-url-processor: the fragment is
// ignored; everything after the first ',' is percent-decoded, then
// base64-decoded when the type ends in ";base64"; a missing or unparsable
// type is text/plain. Errors when there is no ',' or the base64 is invalid.
base::Result<DataUrlContents> ProcessDataUrl(std::string_view url);

// https://mimesniff.spec.whatwg.org/#javascript-mime-type
bool IsJavaScriptMimeEssence(std::string_view essence);
// https://mimesniff.spec.whatwg.org/#json-mime-type
bool IsJsonMimeEssence(std::string_view essence);

// https://infra.spec.whatwg.org/#forgiving-base64-decode of bytes (each one
// a code point below 0x100): ASCII whitespace is skipped, '=' padding is
// optional but must be right when present. Decodes in place; nullopt when
// the input is not base64. (atob and data: URLs.)
std::optional<std::string> ForgivingBase64Decode(std::string data);

}  // namespace hostloop::runtime
