#include "runtime/data_url.h"

#include <gtest/gtest.h>

namespace hostloop::runtime {
namespace {

// The essence and body, or "failure".
std::string Processed(std::string_view url) {
  base::Result<DataUrlContents> contents = ProcessDataUrl(url);
  if (!contents.ok()) return "failure";
  return contents.value().mime_essence + " " + contents.value().body;
}

TEST(DataUrl, ReadsTypeAndPercentDecodedBody) {
  EXPECT_EQ(Processed("data:text/javascript,export%20const%20a%3D1;"),
            "text/javascript export const a=1;");
  EXPECT_EQ(Processed("DATA:Text/JavaScript;charset=utf-8,x"), "text/javascript x");
  EXPECT_EQ(Processed("data: text/javascript ,x"), "text/javascript x");
  // Only the first ',' ends the type; the fragment is not part of the body.
  EXPECT_EQ(Processed("data:text/javascript,a,b#frag"), "text/javascript a,b");
  // A '%' without two hex digits stays.
  EXPECT_EQ(Processed("data:,100%%zz%4"), "text/plain 100%%zz%4");
  // UTF-8 bytes pass through; escapes of them decode to the same bytes.
  EXPECT_EQ(Processed("data:,\xC3\xA9%C3%A9"), "text/plain \xC3\xA9\xC3\xA9");
}

TEST(DataUrl, MissingOrBadTypeIsTextPlain) {
  EXPECT_EQ(Processed("data:,x"), "text/plain x");
  EXPECT_EQ(Processed("data:;charset=utf-8,x"), "text/plain x");
  EXPECT_EQ(Processed("data:javascript,x"), "text/plain x");
  EXPECT_EQ(Processed("data:text/java script,x"), "text/plain x");
  EXPECT_EQ(Processed("data:/javascript,x"), "text/plain x");
}

TEST(DataUrl, DecodesBase64) {
  EXPECT_EQ(Processed("data:text/javascript;base64,ZXhwb3J0IGRlZmF1bHQgNDI="),
            "text/javascript export default 42");
  // ";base64" in any case, spaces before it, whitespace and no padding in
  // the body; percent-escapes are decoded first.
  EXPECT_EQ(Processed("data:text/plain; BASE64,YW %4Aj"), "text/plain abc");
  EXPECT_EQ(Processed("data:;base64,YWJj"), "text/plain abc");
  EXPECT_EQ(Processed("data:text/plain;base64,YQ"), "text/plain a");
  // Not base64: failure, never a half-decoded body.
  EXPECT_EQ(Processed("data:text/plain;base64,YQ=a"), "failure");
  EXPECT_EQ(Processed("data:text/plain;base64,Y"), "failure");
  EXPECT_EQ(Processed("data:text/plain;base64,YWJj!"), "failure");
  // "base64" that is not the last parameter is just a parameter.
  EXPECT_EQ(Processed("data:text/plain;base64;x=y,YWJj"), "text/plain YWJj");
  EXPECT_EQ(Processed("data:text/plainbase64,YWJj"), "text/plainbase64 YWJj");
}

TEST(DataUrl, RefusesUrlsWithoutBodyOrScheme) {
  EXPECT_EQ(Processed("data:text/javascript"), "failure");
  EXPECT_EQ(Processed("file:///x,y"), "failure");
  EXPECT_TRUE(IsDataUrl("Data:,"));
  EXPECT_FALSE(IsDataUrl("dat:,"));
}

TEST(DataUrl, KnowsJavaScriptAndJsonTypes) {
  for (const char* essence : {"text/javascript", "application/javascript", "text/ecmascript",
                              "application/x-javascript", "text/javascript1.5", "text/jscript"}) {
    EXPECT_TRUE(IsJavaScriptMimeEssence(essence)) << essence;
  }
  for (const char* essence : {"text/plain", "application/json", "text/javascript2", "module"}) {
    EXPECT_FALSE(IsJavaScriptMimeEssence(essence)) << essence;
  }
  for (const char* essence : {"application/json", "text/json", "application/ld+json"}) {
    EXPECT_TRUE(IsJsonMimeEssence(essence)) << essence;
  }
  for (const char* essence : {"text/plain", "application/+json", "application/jsonx"}) {
    EXPECT_FALSE(IsJsonMimeEssence(essence)) << essence;
  }
}

TEST(DataUrl, ForgivingBase64MatchesInfra) {
  EXPECT_EQ(ForgivingBase64Decode("").value(), "");
  EXPECT_EQ(ForgivingBase64Decode("YWI=").value(), "ab");
  EXPECT_EQ(ForgivingBase64Decode("YWI").value(), "ab");
  EXPECT_EQ(ForgivingBase64Decode(" Y W\nI\t=\f").value(), "ab");
  EXPECT_EQ(ForgivingBase64Decode("/+/+").value(), "\xFF\xEF\xFE");
  EXPECT_FALSE(ForgivingBase64Decode("YWI==").has_value());
  EXPECT_FALSE(ForgivingBase64Decode("YW=I").has_value());
  EXPECT_FALSE(ForgivingBase64Decode("YWJjZ").has_value());
  EXPECT_FALSE(ForgivingBase64Decode("YW-I").has_value());
}

}  // namespace
}  // namespace hostloop::runtime
