#include "runtime/data_url.h"

#include <array>
#include <cstdint>

namespace hostloop::runtime {
namespace {

constexpr std::string_view kScheme = "data:";

char AsciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsIgnoringAsciiCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

bool IsAsciiWhitespace(char c) {
  return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ';
}

bool IsHttpWhitespace(char c) { return c == '\t' || c == '\n' || c == '\r' || c == ' '; }

// https://mimesniff.spec.whatwg.org/#http-token-code-point
bool IsHttpTokenChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool IsHttpToken(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!IsHttpTokenChar(c)) return false;
  }
  return true;
}

template <typename Predicate>
std::string_view Strip(std::string_view text, Predicate is_space) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = AsciiLower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// https://url.spec.whatwg.org/#percent-decode: a '%' not followed by two
// hex digits stays as it is.
std::string PercentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && HexValue(text[i + 1]) >= 0 &&
        HexValue(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

// The essence of https://mimesniff.spec.whatwg.org/#parse-a-mime-type
// (parameters are not needed here), or "" when `text` is no MIME type.
std::string MimeEssence(std::string_view text) {
  text = Strip(text, IsHttpWhitespace);
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return "";
  std::string_view type = text.substr(0, slash);
  std::string_view subtype = text.substr(slash + 1);
  subtype = subtype.substr(0, subtype.find(';'));
  while (!subtype.empty() && IsHttpWhitespace(subtype.back())) subtype.remove_suffix(1);
  if (!IsHttpToken(type) || !IsHttpToken(subtype)) return "";
  std::string essence;
  for (char c : type) essence.push_back(AsciiLower(c));
  essence.push_back('/');
  for (char c : subtype) essence.push_back(AsciiLower(c));
  return essence;
}

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Each byte's 6-bit value in kBase64Alphabet, or -1.
constexpr std::array<int8_t, 256> kBase64Values = [] {
  std::array<int8_t, 256> values{};
  values.fill(-1);
  for (int i = 0; i < 64; ++i) {
    values[static_cast<unsigned char>(kBase64Alphabet[i])] = static_cast<int8_t>(i);
  }
  return values;
}();

}  // namespace

bool IsDataUrl(std::string_view url) {
  return url.size() >= kScheme.size() &&
         EqualsIgnoringAsciiCase(url.substr(0, kScheme.size()), kScheme);
}

base::Result<DataUrlContents> ProcessDataUrl(std::string_view url) {
  if (!IsDataUrl(url)) return base::Error{0, "not a data: URL"};
  // Steps 2-3: the URL without its fragment and scheme.
  std::string_view input = url.substr(kScheme.size());
  input = input.substr(0, input.find('#'));
  // Steps 4-7: the type runs to the first ','.
  const std::size_t comma = input.find(',');
  if (comma == std::string_view::npos)
    return base::Error{0, "a data: URL needs a ',' before its body"};
  std::string mime_type(Strip(input.substr(0, comma), IsAsciiWhitespace));
  // Steps 8-9.
  DataUrlContents contents;
  contents.body = PercentDecode(input.substr(comma + 1));
  // Step 10: ";base64" (spaces allowed before "base64") ends the type.
  std::string_view type_view = mime_type;
  if (type_view.size() >= 6 &&
      EqualsIgnoringAsciiCase(type_view.substr(type_view.size() - 6), "base64")) {
    std::string_view before = type_view.substr(0, type_view.size() - 6);
    while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
    if (!before.empty() && before.back() == ';') {
      std::optional<std::string> decoded = ForgivingBase64Decode(std::move(contents.body));
      if (!decoded) return base::Error{0, "the body of a ;base64 data: URL is not valid base64"};
      contents.body = std::move(*decoded);
      before.remove_suffix(1);
      mime_type = std::string(before);
    }
  }
  // Steps 11-13.
  if (!mime_type.empty() && mime_type.front() == ';') mime_type.insert(0, "text/plain");
  contents.mime_essence = MimeEssence(mime_type);
  if (contents.mime_essence.empty()) contents.mime_essence = "text/plain";
  return contents;
}

bool IsJavaScriptMimeEssence(std::string_view essence) {
  static constexpr std::string_view kEssences[] = {"application/ecmascript",
                                                   "application/javascript",
                                                   "application/x-ecmascript",
                                                   "application/x-javascript",
                                                   "text/ecmascript",
                                                   "text/javascript",
                                                   "text/javascript1.0",
                                                   "text/javascript1.1",
                                                   "text/javascript1.2",
                                                   "text/javascript1.3",
                                                   "text/javascript1.4",
                                                   "text/javascript1.5",
                                                   "text/jscript",
                                                   "text/livescript",
                                                   "text/x-ecmascript",
                                                   "text/x-javascript"};
  for (std::string_view known : kEssences) {
    if (essence == known) return true;
  }
  return false;
}

bool IsJsonMimeEssence(std::string_view essence) {
  if (essence == "application/json" || essence == "text/json") return true;
  const std::size_t slash = essence.find('/');
  std::string_view subtype = slash == std::string_view::npos ? "" : essence.substr(slash + 1);
  return subtype.size() > 5 && subtype.substr(subtype.size() - 5) == "+json";
}

std::optional<std::string> ForgivingBase64Decode(std::string data) {
  // Step 1: ASCII whitespace goes; the rest become 6-bit values, with '='
  // counted (only trailing ones can be valid, checked in step 2).
  // (Written in place, through pointers: std::string's push_back is an
  // out-of-line call per character with libstdc++.)
  uint8_t* const v = reinterpret_cast<uint8_t*>(data.data());
  std::size_t length = 0;
  std::size_t padding = 0;
  for (const uint8_t c : std::string_view(data)) {
    if (c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D || c == 0x20) continue;
    if (c == '=') {
      ++padding;
      continue;
    }
    // Step 4: anything but + / and ASCII alphanumerics (a '=' before it too).
    if (kBase64Values[c] < 0 || padding > 0) return std::nullopt;
    v[length++] = static_cast<uint8_t>(kBase64Values[c]);
  }
  // Steps 2-3: one or two '=' only when they make the length a multiple of
  // 4; a length of 1 modulo 4 is never valid.
  if (padding > 2 || (padding > 0 && (length + padding) % 4 != 0) || length % 4 == 1) {
    return std::nullopt;
  }
  // Every 4 values become 3 bytes, written over the values already read.
  char* o = data.data();
  std::size_t i = 0;
  for (; i + 3 < length; i += 4) {
    const uint32_t quad =
        (uint32_t{v[i]} << 18) | (uint32_t{v[i + 1]} << 12) | (uint32_t{v[i + 2]} << 6) | v[i + 3];
    *o++ = static_cast<char>(quad >> 16);
    *o++ = static_cast<char>((quad >> 8) & 0xFF);
    *o++ = static_cast<char>(quad & 0xFF);
  }
  // Steps 5-8 for the rest: 2 or 3 values give 1 or 2 bytes (extra bits
  // discarded).
  if (length - i >= 2) {
    const uint32_t rest = (uint32_t{v[i]} << 18) | (uint32_t{v[i + 1]} << 12) |
                          (length - i == 3 ? uint32_t{v[i + 2]} << 6 : 0);
    *o++ = static_cast<char>(rest >> 16);
    if (length - i == 3) *o++ = static_cast<char>((rest >> 8) & 0xFF);
  }
  data.resize(static_cast<std::size_t>(o - data.data()));
  return data;
}

}  // namespace hostloop::runtime
