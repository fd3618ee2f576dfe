#include "runtime/file_url.h"

#include <unistd.h>

#include <climits>
#include <optional>
#include <vector>

#include "runtime/data_url.h"

namespace hostloop::runtime {
namespace {

constexpr std::string_view kFileScheme = "file://";

// The WHATWG percent-encode sets a file: URL uses, beyond the C0 controls,
// space and bytes above '~' that all three encode.
bool InPathSet(unsigned char c) {
  return c <= 0x20 || c > 0x7e || c == '"' || c == '#' || c == '<' || c == '>' || c == '?' ||
         c == '`' || c == '{' || c == '}' || c == '^';
}
bool InSpecialQuerySet(unsigned char c) {
  return c <= 0x20 || c > 0x7e || c == '"' || c == '#' || c == '<' || c == '>' || c == '\'';
}
bool InFragmentSet(unsigned char c) {
  return c <= 0x20 || c > 0x7e || c == '"' || c == '<' || c == '>' || c == '`';
}

// A file name in a file: URL: the path set, plus '%' (a literal '%' in a
// name survives the round trip) and '\\' (a separator in a file: URL).
bool InFileNameSet(unsigned char c) { return InPathSet(c) || c == '%' || c == '\\'; }

void AppendWithSet(std::string* out, std::string_view text, bool (*in_set)(unsigned char)) {
  static const char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : text) {
    if (in_set(c)) {
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
    if (segment == ".") {
      if (last) segments.emplace_back();
    } else if (segment == "..") {
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
  AppendWithSet(&url, path, InFileNameSet);
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

namespace {

bool IsSlash(char c) { return c == '/' || c == '\\'; }

bool IsAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Where the segment (or host) starting at `i` ends: a slash of either kind,
// '?', '#' or the end of `input`.
std::size_t SegmentEnd(std::string_view input, std::size_t i) {
  while (i < input.size() && !IsSlash(input[i]) && input[i] != '?' && input[i] != '#') ++i;
  return i;
}

bool IsSingleDot(std::string_view segment) {
  return segment == "." || AsciiLower(segment) == "%2e";
}
bool IsDoubleDot(std::string_view segment) {
  std::string lower = AsciiLower(segment);
  return lower == ".." || lower == ".%2e" || lower == "%2e." || lower == "%2e%2e";
}

// The URL parser's first steps: leading and trailing C0 controls and spaces
// go, and so does every tab and newline.
std::string StripUrlInput(std::string_view input) {
  std::size_t begin = 0;
  std::size_t end = input.size();
  while (begin < end && static_cast<unsigned char>(input[begin]) <= 0x20) ++begin;
  while (end > begin && static_cast<unsigned char>(input[end - 1]) <= 0x20) --end;
  std::string out;
  for (char c : input.substr(begin, end - begin)) {
    if (c != '\t' && c != '\n' && c != '\r') out.push_back(c);
  }
  return out;
}

// The parts of a file: URL hostloop made (no host).
struct FileUrlParts {
  std::vector<std::string> path;
  std::optional<std::string> query;
};

std::optional<FileUrlParts> SplitFileUrl(std::string_view url) {
  if (url.substr(0, kFileScheme.size()) != kFileScheme) return std::nullopt;
  std::string_view rest = url.substr(kFileScheme.size());
  if (rest.empty() || rest[0] != '/') return std::nullopt;  // a host
  rest = rest.substr(0, rest.find('#'));
  FileUrlParts parts;
  std::size_t question = rest.find('?');
  if (question != std::string_view::npos) parts.query = std::string(rest.substr(question + 1));
  std::string_view path = rest.substr(0, question);
  for (std::size_t start = 1; start <= path.size();) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    parts.path.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

// The URL parser from its "file state" on (https://url.spec.whatwg.org/#file-state):
// `input` is what follows "file:" (or a whole relative URL), `base` the
// parsed base URL if it is a file: URL. Windows drive letters are not
// special here.
base::Result<std::string> ParseFileUrl(std::string_view input,
                                       const std::optional<FileUrlParts>& base) {
  std::vector<std::string> path;
  std::optional<std::string> query;
  std::size_t i = 0;
  const std::size_t n = input.size();
  auto path_state = [&] {
    // https://url.spec.whatwg.org/#path-state: segments end at a slash
    // (either kind), '?', '#' or the end; the last one is always appended.
    while (true) {
      const std::size_t end = SegmentEnd(input, i);
      std::string segment;
      AppendWithSet(&segment, input.substr(i, end - i), InPathSet);
      const bool slash = end < n && IsSlash(input[end]);
      if (IsDoubleDot(segment)) {
        if (!path.empty()) path.pop_back();
        if (!slash) path.emplace_back();
      } else if (IsSingleDot(segment)) {
        if (!slash) path.emplace_back();
      } else {
        path.push_back(std::move(segment));
      }
      i = end;
      if (!slash) return;
      ++i;
    }
  };
  if (i < n && IsSlash(input[i])) {
    ++i;
    if (i < n && IsSlash(input[i])) {
      // File host state: "//host/...". localhost is no host.
      ++i;
      const std::size_t end = SegmentEnd(input, i);
      std::string_view host = input.substr(i, end - i);
      if (!host.empty() && AsciiLower(host) != "localhost") {
        return base::Error{0, "file: URL with a remote host '" + std::string(host) + "'"};
      }
      i = end;
      // Path start state: one slash is the path's own.
      if (i < n && IsSlash(input[i])) ++i;
    }
    path_state();
  } else if (base) {
    path = base->path;
    if (i == n) {
      query = base->query;
    } else if (input[i] == '#') {
      query = base->query;
    } else if (input[i] != '?') {
      if (!path.empty()) path.pop_back();
      path_state();
    }
  } else {
    path_state();
  }
  if (i < n && input[i] == '?') {
    std::size_t end = input.find('#', i + 1);
    if (end == std::string_view::npos) end = n;
    query.emplace();
    AppendWithSet(&*query, input.substr(i + 1, end - i - 1), InSpecialQuerySet);
    i = end;
  }
  std::string url(kFileScheme);
  for (const std::string& segment : path) {
    url.push_back('/');
    url.append(segment);
  }
  if (query) {
    url.push_back('?');
    url.append(*query);
  }
  if (i < n && input[i] == '#') {
    url.push_back('#');
    AppendWithSet(&url, input.substr(i + 1), InFragmentSet);
  }
  return url;
}

}  // namespace

base::Result<std::string> ParseUrl(std::string_view input, std::string_view base_url) {
  const std::string stripped = StripUrlInput(input);
  std::string_view text = stripped;
  // A scheme: an ASCII letter, then letters, digits, '+', '-' or '.', then ':'.
  std::size_t colon = 0;
  if (!text.empty() && IsAsciiAlpha(text[0])) {
    std::size_t j = 1;
    while (j < text.size() && (IsAsciiAlpha(text[j]) || (text[j] >= '0' && text[j] <= '9') ||
                               text[j] == '+' || text[j] == '-' || text[j] == '.')) {
      ++j;
    }
    if (j < text.size() && text[j] == ':') colon = j;
  }
  if (colon > 0) {
    const std::string scheme = AsciiLower(text.substr(0, colon));
    if (scheme == "hostloop") return "hostloop:" + std::string(text.substr(colon + 1));
    // A data: URL has an opaque path: kept as written (what the data: URL
    // processor reads back is the same either way).
    if (scheme == "data") return "data:" + std::string(text.substr(colon + 1));
    if (scheme != "file") {
      return base::Error{0, "unsupported URL scheme '" + scheme +
                                ":' (hostloop loads file:, data: and hostloop: URLs)"};
    }
    return ParseFileUrl(text.substr(colon + 1), SplitFileUrl(base_url));
  }
  std::optional<FileUrlParts> base = SplitFileUrl(base_url);
  if (!base && IsDataUrl(base_url)) {
    return base::Error{0, "a relative URL ('" + std::string(input) +
                              "') cannot be resolved against a data: URL, which has no path: "
                              "use an absolute URL"};
  }
  if (!base)
    return base::Error{
        0, "cannot resolve '" + std::string(input) + "' against " + std::string(base_url)};
  return ParseFileUrl(text, base);
}

base::Result<std::string> ResolveSpecifier(std::string_view specifier, std::string_view base_url) {
  auto quoted = [&] { return "'" + std::string(specifier) + "'"; };
  if (specifier.empty()) return base::Error{0, "empty module specifier"};
  // HTML "resolve a module specifier": only these prefixes make a URL
  // relative to the importing module; anything else must be an absolute URL.
  const bool relative = specifier.substr(0, 1) == "/" || specifier.substr(0, 2) == "./" ||
                        specifier.substr(0, 3) == "../";
  if (relative) return ParseUrl(specifier, base_url);
  const std::string stripped = StripUrlInput(specifier);
  const std::size_t colon = stripped.find(':');
  const std::size_t slash = stripped.find_first_of("/\\");
  const bool has_scheme = colon != std::string::npos && colon > 0 && IsAsciiAlpha(stripped[0]) &&
                          (slash == std::string::npos || colon < slash);
  if (!has_scheme) {
    return base::Error{0, "bare module specifier " + quoted() +
                              " is not supported: use a relative path (./, ../), an absolute path "
                              "or a file: URL"};
  }
  // A URL-like specifier is parsed on its own, with no base (HTML):
  // "file:x.mjs" is file:///x.mjs, not a file beside the importer.
  base::Result<std::string> url = ParseUrl(specifier, "");
  if (!url.ok()) {
    return base::Error{0, url.error().message + " in module specifier " + quoted()};
  }
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
    // (A current directory that was removed has no name: "/" then, so that
    // the result is still an absolute path.)
    char cwd[PATH_MAX];
    joined = ::getcwd(cwd, sizeof cwd) != nullptr ? cwd : "/";
    joined.push_back('/');
    joined.append(path);
  }
  // Repeated slashes name the same file as one ("/" as the current
  // directory gave "//x"): one file, one path, one module URL.
  std::string single;
  for (char c : joined) {
    if (c != '/' || single.empty() || single.back() != '/') single.push_back(c);
  }
  return NormalizeSegments(single);
}

}  // namespace hostloop::runtime
