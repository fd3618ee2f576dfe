#include "runtime/file_url.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace hostloop::runtime {
namespace {

TEST(FileUrl, PathsRoundTripThroughUrls) {
  EXPECT_EQ(PathToFileUrl("/tmp/a b.mjs"), "file:///tmp/a%20b.mjs");
  EXPECT_EQ(PathToFileUrl("/tmp/100%/x#y?.mjs"), "file:///tmp/100%25/x%23y%3F.mjs");
  EXPECT_EQ(PathToFileUrl("/tmp/a^b\\c.mjs"), "file:///tmp/a%5Eb%5Cc.mjs");
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
  EXPECT_EQ(ResolveSpecifier("./d e.mjs?v=1#top", base).value(),
            "file:///app/src/d%20e.mjs?v=1#top");
  EXPECT_EQ(ResolveSpecifier("./f%20g.mjs", base).value(), "file:///app/src/f%20g.mjs");
  EXPECT_EQ(ResolveSpecifier("file:///other/./x/../y.mjs", base).value(), "file:///other/y.mjs");
  EXPECT_EQ(ResolveSpecifier("hostloop:fs", base).value(), "hostloop:fs");
  // A URL-like specifier is parsed with no base (HTML), as new URL(x) does:
  // not a file beside the importer.
  EXPECT_EQ(ResolveSpecifier("file:x.mjs", base).value(), "file:///x.mjs");
  EXPECT_EQ(ResolveSpecifier("file:", base).value(), "file:///");
}

TEST(FileUrl, AbsolutePathsHaveSingleSlashes) {
  EXPECT_EQ(AbsolutePath("/tmp//a///b.mjs"), "/tmp/a/b.mjs");
  EXPECT_EQ(AbsolutePath("//tmp/./a/../b.mjs"), "/tmp/b.mjs");
  // Relative to "/" as the current directory (it gave "//tmp/x.mjs", and
  // file:////tmp/x.mjs, a second URL for one file).
  char saved[4096];
  ASSERT_NE(getcwd(saved, sizeof saved), nullptr);
  ASSERT_EQ(chdir("/"), 0);
  EXPECT_EQ(AbsolutePath("tmp/x.mjs"), "/tmp/x.mjs");
  EXPECT_EQ(PathToFileUrl(AbsolutePath("tmp/x.mjs")), "file:///tmp/x.mjs");
  ASSERT_EQ(chdir(saved), 0);
}

// One module, one URL: spellings the WHATWG URL parser treats as the same
// URL resolve to the same string (else one file became two module instances).
TEST(FileUrl, ResolvesAsTheWhatwgUrlParserDoes) {
  const char* base = "file:///app/src/main.mjs?v=2#frag";
  // Percent-encoded dot segments, in any case.
  EXPECT_EQ(ResolveSpecifier("./a/.%2e/b.mjs", base).value(), "file:///app/src/b.mjs");
  EXPECT_EQ(ResolveSpecifier("./a/%2E./b.mjs", base).value(), "file:///app/src/b.mjs");
  EXPECT_EQ(ResolveSpecifier("./%2e/b.mjs", base).value(), "file:///app/src/b.mjs");
  EXPECT_EQ(ResolveSpecifier("./a/..", base).value(), "file:///app/src/");
  EXPECT_EQ(ResolveSpecifier("./.", base).value(), "file:///app/src/");
  // A backslash separates segments in a file: URL.
  EXPECT_EQ(ResolveSpecifier("./a\\b.mjs", base).value(), "file:///app/src/a/b.mjs");
  EXPECT_EQ(ResolveSpecifier("./a\\..\\c.mjs", base).value(), "file:///app/src/c.mjs");
  // Tabs and newlines vanish; outer spaces go.
  EXPECT_EQ(ResolveSpecifier("./x\t.m\njs ", base).value(), "file:///app/src/x.mjs");
  // Query and fragment are percent-encoded with their own sets.
  EXPECT_EQ(ResolveSpecifier("./q.mjs?a b'c\"#d e`'", base).value(),
            "file:///app/src/q.mjs?a%20b%27c%22#d%20e%60'");
  EXPECT_EQ(ResolveSpecifier("./x^{}.mjs", base).value(), "file:///app/src/x%5E%7B%7D.mjs");
  EXPECT_EQ(ResolveSpecifier("./\xc3\xa9.mjs", base).value(), "file:///app/src/%C3%A9.mjs");
  // Scheme-relative: localhost is no host; another host is an error.
  EXPECT_EQ(ResolveSpecifier("//localhost/x.mjs", base).value(), "file:///x.mjs");
  EXPECT_EQ(ResolveSpecifier("//LocalHost\\x.mjs", base).value(), "file:///x.mjs");
  ASSERT_FALSE(ResolveSpecifier("//server/x.mjs", base).ok());
  EXPECT_NE(ResolveSpecifier("//server/x.mjs", base).error().message.find("remote host 'server'"),
            std::string::npos);
  // Schemes are case-insensitive; a "file:" specifier is parsed with no
  // base (HTML), so without slashes it is not relative to the importer, while
  // the URL parser itself does read it against a file: base.
  EXPECT_EQ(ResolveSpecifier("FILE:///y.mjs", base).value(), "file:///y.mjs");
  EXPECT_EQ(ResolveSpecifier("file:y.mjs", base).value(), "file:///y.mjs");
  EXPECT_EQ(ResolveSpecifier("file:?w=1", base).value(), "file:///?w=1");
  EXPECT_EQ(ParseUrl("file:y.mjs", base).value(), "file:///app/src/y.mjs");
  EXPECT_EQ(ParseUrl("file:?w=1", base).value(), "file:///app/src/main.mjs?w=1");
  EXPECT_EQ(ParseUrl("file:", base).value(), "file:///app/src/main.mjs?v=2");
  EXPECT_EQ(ResolveSpecifier("HostLoop:fs", base).value(), "hostloop:fs");
  // HTML: only "/", "./" and "../" make a specifier relative.
  EXPECT_FALSE(ResolveSpecifier(".", base).ok());
  EXPECT_FALSE(ResolveSpecifier("..", base).ok());
  EXPECT_FALSE(ResolveSpecifier(".\\x.mjs", base).ok());
  // A Worker's or importScripts' URL is any URL: "w.mjs" is relative.
  EXPECT_EQ(ParseUrl("w.mjs", base).value(), "file:///app/src/w.mjs");
  EXPECT_EQ(ParseUrl("", base).value(), "file:///app/src/main.mjs?v=2");
  EXPECT_FALSE(ParseUrl("https://x.test/w.js", base).ok());
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
