// file: URLs for module identity, and module specifier resolution.
// Modules are named by absolute file: URLs (what import.meta.url shows).
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace hostloop::runtime {

// "/tmp/a b.mjs" -> "file:///tmp/a%20b.mjs". `path` must be absolute.
std::string PathToFileUrl(std::string_view path);

// "file:///tmp/a%20b.mjs?x#y" -> "/tmp/a b.mjs". Errors for other schemes,
// remote hosts and encoded slashes.
base::Result<std::string> FileUrlToPath(std::string_view url);

// Parses `input` as a URL against `base_url` with the WHATWG URL parser's
// rules for the two schemes hostloop loads: file: (dot segments, '\\' as
// '/', percent-encoding of path, query and fragment, localhost as no host;
// Windows drive letters are not special), and hostloop: and data: (kept as
// written). Errors for other schemes, for file: URLs naming a remote host,
// and for relative input against a base that is not a file: URL.
base::Result<std::string> ParseUrl(std::string_view input, std::string_view base_url);
// Resolves an import specifier against the importing module's URL as HTML
// does (https://html.spec.whatwg.org/#resolve-a-module-specifier, without
// import maps): "/", "./" and "../" prefixes are URLs relative to the
// base, anything else must be an absolute file:, data: or hostloop: URL; bare
// specifiers ("lodash") and other schemes are errors that say why.
base::Result<std::string> ResolveSpecifier(std::string_view specifier, std::string_view base_url);
// Makes a path absolute against the current directory and removes "." and
// ".." segments and repeated slashes (lexically; symlinks are kept).
std::string AbsolutePath(std::string_view path);
// The file: URL of the current directory, ending in one "/" (the base for
// code with no file of its own: a string timer handler, the REPL).
std::string CurrentDirectoryUrl();

}  // namespace hostloop::runtime
