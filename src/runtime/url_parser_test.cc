#include "runtime/url_parser.h"

#include <gtest/gtest.h>

#include <string>

namespace hostloop::runtime {
namespace {

// Debian's libnode108 exports Ada's C API: without it the URL constructor's
// fast path would stay off silently (js/url_fast_path only checks that the
// two parsers agree).
TEST(UrlParser, LibnodeExportsAdasCApi) { EXPECT_TRUE(UrlParserLinked()); }

// What takes Ada's fast path (the rest goes to whatwg-url).
TEST(UrlParser, FastPathAllowsUrlSafeAsciiWithoutPunycode) {
  EXPECT_TRUE(FastPathAllows(""));
  EXPECT_TRUE(FastPathAllows("http://a/b"));
  EXPECT_TRUE(FastPathAllows("https://user:pw@www.Example.com:8080/p/x.html?q=1&r=2#frag"));
  EXPECT_TRUE(FastPathAllows("http://[::1]/~a-b_c.d!$&'()*+,;=%41"));
  EXPECT_TRUE(FastPathAllows("http://xn-/a"));  // not a punycode prefix
  EXPECT_TRUE(FastPathAllows("http://x-n--a/"));
  EXPECT_FALSE(FastPathAllows("http://xn--nxasmq6b/"));
  EXPECT_FALSE(FastPathAllows("http://a.XN--nxasmq6b/"));
  EXPECT_FALSE(FastPathAllows("http://a.xN--/"));
  EXPECT_FALSE(FastPathAllows("http://a/b c"));  // needs percent-encoding
  EXPECT_FALSE(FastPathAllows("http://a/^"));    // the spec changed since this Ada
  EXPECT_FALSE(FastPathAllows("http://a/\\b"));
  EXPECT_FALSE(FastPathAllows("http://a/\"b\""));
  EXPECT_FALSE(FastPathAllows("http://a/{b}|`<>"));
  EXPECT_FALSE(FastPathAllows("http://a/\t"));
  EXPECT_FALSE(FastPathAllows("http://\xC3\xA9/"));  // UTF-8 of non-ASCII
  EXPECT_TRUE(FastPathAllows(std::string(0xFFFF, 'a')));
  EXPECT_FALSE(FastPathAllows(std::string(0x10000, 'a')));
}

}  // namespace
}  // namespace hostloop::runtime
