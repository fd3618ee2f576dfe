#include "runtime/url_parser.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "runtime/v8_util.h"

// Ada's C API (ada_c.h), as libnode.so.108 exports it. Weak: a libnode
// built without it still links and loads, and the fast path stays off.
extern "C" {
typedef void* ada_url;
struct ada_string {
  const char* data;
  size_t length;
};
struct ada_url_components {
  uint32_t protocol_end;
  uint32_t username_end;
  uint32_t host_start;
  uint32_t host_end;
  uint32_t port;
  uint32_t pathname_start;
  uint32_t search_start;
  uint32_t hash_start;
};
ada_url ada_parse(const char* input, size_t length) __attribute__((weak));
ada_url ada_parse_with_base(const char* input, size_t input_length, const char* base,
                            size_t base_length) __attribute__((weak));
bool ada_is_valid(ada_url result) __attribute__((weak));
ada_string ada_get_href(ada_url result) __attribute__((weak));
const ada_url_components* ada_get_components(ada_url result) __attribute__((weak));
void ada_free(ada_url result) __attribute__((weak));
}

namespace hostloop::runtime {

bool FastPathAllows(std::string_view text) {
  static constexpr auto kAllowed = [] {
    std::array<bool, 256> allowed{};
    for (int c = 'A'; c <= 'Z'; ++c) allowed[c] = allowed[c + ('a' - 'A')] = true;
    for (int c = '0'; c <= '9'; ++c) allowed[c] = true;
    for (unsigned char c : std::string_view("-._~:/?#[]@!$&'()*+,;=%")) allowed[c] = true;
    return allowed;
  }();
  if (text.size() >= 0x10000) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (!kAllowed[c]) return false;
    // "xn--", any case ('-' has no case: | 0x20 leaves it).
    if ((c | 0x20) == 'x' && i + 3 < text.size() && (text[i + 1] | 0x20) == 'n' &&
        text[i + 2] == '-' && text[i + 3] == '-') {
      return false;
    }
  }
  return true;
}

bool UrlParserLinked() {
  return ada_parse != nullptr && ada_parse_with_base != nullptr && ada_is_valid != nullptr &&
         ada_get_href != nullptr && ada_get_components != nullptr && ada_free != nullptr;
}

namespace {

// Frees an ada_url when it goes out of scope.
class AdaUrl {
 public:
  explicit AdaUrl(ada_url url) : url_(url) {}
  ~AdaUrl() { ada_free(url_); }
  AdaUrl(const AdaUrl&) = delete;
  AdaUrl& operator=(const AdaUrl&) = delete;
  ada_url get() const { return url_; }

 private:
  ada_url url_;
};

}  // namespace

void UrlParse(const v8::FunctionCallbackInfo<v8::Value>& info) {
  v8::Isolate* isolate = info.GetIsolate();
  if (!UrlParserLinked() || info.Length() < 3 || !info[0]->IsString() ||
      !info[2]->IsUint32Array()) {
    return;
  }
  v8::Local<v8::Uint32Array> out = info[2].As<v8::Uint32Array>();
  if (out->Length() < 8) return;
  std::string input = StdString(isolate, info[0]);
  if (!FastPathAllows(input)) return;
  ada_url parsed;
  if (info[1]->IsString()) {
    std::string base = StdString(isolate, info[1]);
    if (!FastPathAllows(base)) return;
    parsed = ada_parse_with_base(input.data(), input.size(), base.data(), base.size());
  } else {
    parsed = ada_parse(input.data(), input.size());
  }
  AdaUrl url(parsed);
  if (!ada_is_valid(url.get())) return;
  const ada_url_components* components = ada_get_components(url.get());
  const uint32_t offsets[8] = {components->protocol_end, components->username_end,
                               components->host_start,   components->host_end,
                               components->port,         components->pathname_start,
                               components->search_start, components->hash_start};
  // (CopyContents would not write; the view's bytes are written directly.
  // Data(), not GetBackingStore(): no shared_ptr to make and drop per call.)
  std::memcpy(static_cast<char*>(out->Buffer()->Data()) + out->ByteOffset(), offsets,
              sizeof(offsets));
  ada_string href = ada_get_href(url.get());
  // A serialized URL is ASCII (non-ASCII is percent-encoded, hosts are
  // punycode), its own Latin-1: no UTF-8 decoder needed (checked anyway).
  const auto* bytes = reinterpret_cast<const uint8_t*>(href.data);
  bool ascii = true;
  for (std::size_t i = 0; i < href.length; ++i) ascii &= bytes[i] < 0x80;
  v8::Local<v8::String> result;
  if (!(ascii ? v8::String::NewFromOneByte(isolate, bytes, v8::NewStringType::kNormal,
                                           static_cast<int>(href.length))
              : v8::String::NewFromUtf8(isolate, href.data, v8::NewStringType::kNormal,
                                        static_cast<int>(href.length)))
           .ToLocal(&result)) {
    return;
  }
  info.GetReturnValue().Set(result);
}

void UrlParserAvailable(const v8::FunctionCallbackInfo<v8::Value>& info) {
  info.GetReturnValue().Set(UrlParserLinked());
}

}  // namespace hostloop::runtime
