#include "runtime/file_url.h"

#include <gtest/gtest.h>

namespace hostloop::runtime {
namespace {

TEST(FileUrl, PathsRoundTripThroughUrls) {
  EXPECT_EQ(PathToFileUrl("/tmp/a b.mjs"), "file:///tmp/a%20b.mjs");
  EXPECT_EQ(PathToFileUrl("/tmp/100%/x#y?.mjs"), "file:///tmp/100%25/x%23y%3F.mjs");
  for (const char* path : {"/tmp/a b.mjs", "/tmp/100%/x#y?.mjs", "/tmp/é/ü.mjs"}) {
    EXPECT_EQ(FileUrlToPath(PathToFileUrl(path)).value(), path);
  }
}

TEST(FileUrl, RejectsOtherSchemesHostsAndEncodedSlashes) {
  EXPECT_FALSE(FileUrlToPath("http://x/y").ok());
  EXPECT_FALSE(FileUrlToPath("file://server/share/x").ok());
  EXPECT_FALSE(FileUrlToPath("file:///a%2Fb").ok());
  EXPECT_EQ(FileUrlToPath("file://localhost/tmp/x.mjs?q=1#h").value(), "/tmp/x.mjs");
}

TEST(FileUrl, ResolvesRelativeAbsoluteAndFileSpecifiers) {
  const char* base = "file:///app/src/main.mjs";
  EXPECT_EQ(ResolveSpecifier("./a.mjs", base).value(), "file:///app/src/a.mjs");
  EXPECT_EQ(ResolveSpecifier("../lib/b.mjs", base).value(), "file:///app/lib/b.mjs");
  EXPECT_EQ(ResolveSpecifier("../../../x.mjs", base).value(), "file:///x.mjs");
  EXPECT_EQ(ResolveSpecifier("/etc/c.mjs", base).value(), "file:///etc/c.mjs");
  EXPECT_EQ(ResolveSpecifier("./d e.mjs?v=1#top", base).value(), "file:///app/src/d%20e.mjs?v=1#top");
  EXPECT_EQ(ResolveSpecifier("./f%20g.mjs", base).value(), "file:///app/src/f%20g.mjs");
  EXPECT_EQ(ResolveSpecifier("file:///other/./x/../y.mjs", base).value(), "file:///other/y.mjs");
  EXPECT_EQ(ResolveSpecifier("hostloop:fs", base).value(), "hostloop:fs");
}

TEST(FileUrl, ExplainsBareSpecifiersAndUnknownSchemes) {
  auto bare = ResolveSpecifier("lodash", "file:///app/main.mjs");
  ASSERT_FALSE(bare.ok());
  EXPECT_NE(bare.error().message.find("bare module specifier 'lodash'"), std::string::npos);
  auto http = ResolveSpecifier("https://x.test/m.js", "file:///app/main.mjs");
  ASSERT_FALSE(http.ok());
  EXPECT_NE(http.error().message.find("unsupported URL scheme"), std::string::npos);
}

}  // namespace
}  // namespace hostloop::runtime
