#include "runtime/url_parser.h"

#include <gtest/gtest.h>

namespace hostloop::runtime {
namespace {

// Debian's libnode108 exports Ada's C API: without it the URL constructor's
// fast path would stay off silently (js/url_fast_path only checks that the
// two parsers agree).
TEST(UrlParser, LibnodeExportsAdasCApi) { EXPECT_TRUE(UrlParserLinked()); }

}  // namespace
}  // namespace hostloop::runtime
