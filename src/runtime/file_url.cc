#include "runtime/file_url.h"

#include <unistd.h>

#include <climits>
#include <vector>

namespace hostloop::runtime {
namespace {

constexpr std::string_view kFileScheme = "file://";

// The WHATWG path percent-encode set, plus '%' (so that a literal '%' in a
// file name survives the round trip) and non-ASCII bytes.
bool NeedsEncoding(unsigned char c) {
  if (c <= 0x20 || c >= 0x7f) return true;
  switch (c) {
    case '"':
    case '#':
    case '%':
    case '<':
    case '>':
    case '?':
    case '`':
    case '{':
    case '}':
    case '\\':
      return true;
    default:
      return false;
  }
}

void AppendEncoded(std::string* out, std::string_view text, bool keep_percent) {
  static const char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : text) {
    if (NeedsEncoding(c) && !(keep_percent && c == '%')) {
      out->push_back('%');
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 15]);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Splits "path?query#fragment" into the path and the rest.
std::pair<std::string_view, std::string_view> SplitSuffix(std::string_view text) {
  std::size_t cut = text.find_first_of("?#");
  if (cut == std::string_view::npos) return {text, {}};
  return {text.substr(0, cut), text.substr(cut)};
}

// Removes "." and ".." segments from an absolute '/'-separated path.
std::string NormalizeSegments(std::string_view path) {
  std::vector<std::string_view> segments;
  std::size_t start = 1;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view segment = path.substr(start, end - start);
    bool last = end == path.size();
    if (segment == "." || segment == "%2e" || segment == "%2E") {
      if (last) segments.emplace_back();
    } else if (segment == ".." || segment == "%2e%2e" || segment == "%2E%2E") {
      if (!segments.empty()) segments.pop_back();
      if (last) segments.emplace_back();
    } else {
      segments.push_back(segment);
    }
    start = end + 1;
  }
  std::string out;
  for (std::string_view segment : segments) {
    out.push_back('/');
    out.append(segment);
  }
  if (out.empty()) out = "/";
  return out;
}

}  // namespace

std::string PathToFileUrl(std::string_view path) {
  std::string url(kFileScheme);
  AppendEncoded(&url, path, /*keep_percent=*/false);
  return url;
}

base::Result<std::string> FileUrlToPath(std::string_view url) {
  if (url.substr(0, kFileScheme.size()) != kFileScheme) {
    return base::Error{0, "not a file: URL: " + std::string(url)};
  }
  std::string_view rest = url.substr(kFileScheme.size());
  std::size_t slash = rest.find('/');
  std::string_view host = rest.substr(0, slash);
  if (!host.empty() && host != "localhost") {
    return base::Error{0, "file: URL with a remote host: " + std::string(url)};
  }
  if (slash == std::string_view::npos) return std::string("/");
  std::string_view encoded = SplitSuffix(rest.substr(slash)).first;
  std::string path;
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    if (encoded[i] == '%' && i + 2 < encoded.size() && HexValue(encoded[i + 1]) >= 0 &&
        HexValue(encoded[i + 2]) >= 0) {
      char decoded = static_cast<char>(HexValue(encoded[i + 1]) * 16 + HexValue(encoded[i + 2]));
      if (decoded == '/' || decoded == '\0') {
        return base::Error{0, "file: URL with an encoded '/' or NUL: " + std::string(url)};
      }
      path.push_back(decoded);
      i += 2;
    } else {
      path.push_back(encoded[i]);
    }
  }
  return path;
}

base::Result<std::string> ResolveSpecifier(std::string_view specifier, std::string_view base_url) {
  auto quoted = [&] { return "'" + std::string(specifier) + "'"; };
  if (specifier.empty()) return base::Error{0, "empty module specifier"};
  if (specifier.substr(0, 9) == "hostloop:") return std::string(specifier);
  if (specifier.substr(0, 5) == "file:") {
    // file:///abs, file://localhost/abs and file:/abs all name an absolute path.
    std::string_view rest = specifier.substr(5);
    if (rest.substr(0, 11) == "//localhost") rest = rest.substr(11);
    else if (rest.substr(0, 2) == "//") rest = rest.substr(2);
    if (rest.empty() || rest[0] != '/') {
      return base::Error{0, "unsupported file: URL " + quoted() + " (it must name an absolute path)"};
    }
    auto [path, suffix] = SplitSuffix(rest);
    std::string url(kFileScheme);
    AppendEncoded(&url, NormalizeSegments(path), /*keep_percent=*/true);
    url.append(suffix);
    return url;
  }
  bool relative = specifier[0] == '/' || specifier.substr(0, 2) == "./" ||
                  specifier.substr(0, 3) == "../" || specifier == "." || specifier == "..";
  if (!relative) {
    std::size_t colon = specifier.find(':');
    std::size_t slash = specifier.find('/');
    if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash)) {
      return base::Error{0, "unsupported URL scheme in module specifier " + quoted() +
                                " (hostloop loads file: and hostloop: modules)"};
    }
    return base::Error{0, "bare module specifier " + quoted() +
                              " is not supported: use a relative path (./, ../), an absolute path "
                              "or a file: URL"};
  }
  if (base_url.substr(0, kFileScheme.size()) != kFileScheme) {
    return base::Error{0, "cannot resolve " + quoted() + " against " + std::string(base_url)};
  }
  auto [spec_path, suffix] = SplitSuffix(specifier);
  std::string joined;
  if (spec_path[0] == '/') {
    joined = std::string(spec_path);
  } else {
    std::string_view base_path = SplitSuffix(base_url.substr(kFileScheme.size())).first;
    joined = std::string(base_path.substr(0, base_path.rfind('/') + 1));
    joined.append(spec_path);
  }
  std::string url(kFileScheme);
  AppendEncoded(&url, NormalizeSegments(joined), /*keep_percent=*/true);
  url.append(suffix);
  return url;
}

std::string CurrentDirectoryUrl() {
  std::string directory = AbsolutePath(".");
  if (directory.empty() || directory.back() != '/') directory.push_back('/');
  return PathToFileUrl(directory);
}

std::string AbsolutePath(std::string_view path) {
  std::string joined;
  if (!path.empty() && path[0] == '/') {
    joined = std::string(path);
  } else {
    char cwd[PATH_MAX];
    if (::getcwd(cwd, sizeof cwd) == nullptr) return std::string(path);
    joined = cwd;
    joined.push_back('/');
    joined.append(path);
  }
  return NormalizeSegments(joined);
}

}  // namespace hostloop::runtime
