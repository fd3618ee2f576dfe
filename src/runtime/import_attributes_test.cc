#include "runtime/import_attributes.h"

#include <gtest/gtest.h>

namespace hostloop::runtime {
namespace {

// The source after the rewrite.
std::string Rewritten(std::string source) {
  RewriteImportAttributes(&source);
  return source;
}

TEST(ImportAttributes, EveryClauseOfImportsAndReExportsIsRewrittenInOnePass) {
  std::string source =
      "import a from './a.json' with { type: 'json' };\n"
      "import './b.mjs' with {};\n"
      "export { c } from \"./c.json\" with { type: 'json' };\n"
      "export * from './d.mjs' with {};\n";
  EXPECT_EQ(RewriteImportAttributes(&source), 4u);
  EXPECT_EQ(source,
            "import a from './a.json'assert{ type: 'json' };\n"
            "import './b.mjs'assert{};\n"
            "export { c } from \"./c.json\"assert{ type: 'json' };\n"
            "export * from './d.mjs'assert{};\n");
}

TEST(ImportAttributesPositions, ColumnsStayWhenTwoBlanksSurroundWith) {
  EXPECT_EQ(Rewritten("import './a' with { } ; x"), "import './a'assert{ } ; x");
  EXPECT_EQ(Rewritten("import './a'  with{ } ; x"), "import './a'assert{ } ; x");
  EXPECT_EQ(Rewritten("import './a' with    { } ; x"), "import './a'assert   { } ; x");
}

TEST(ImportAttributesPositions, FewerBlanksShiftTheRestOfTheLineByTheMissingCount) {
  EXPECT_EQ(Rewritten("import './a' with{ } ; x"), "import './a'assert{ } ; x");
  EXPECT_EQ(Rewritten("import './a'with{ } ; x"), "import './a'assert{ } ; x");
}

TEST(ImportAttributesPositions, LinesStayAndAssertFollowsTheSpecifierOnItsLine) {
  EXPECT_EQ(Rewritten("import a from './a.json'\n  with { type: 'json' };"),
            "import a from './a.json'assert\n       { type: 'json' };");
  EXPECT_EQ(Rewritten("import './a' with\n{}"), "import './a'assert\n{}");
  EXPECT_EQ(Rewritten("import './a' // note\n  with {}"), "import './a'assert// note\n       {}");
  EXPECT_EQ(Rewritten("import './a' /* a\n b */ with {}"), "import './a'assert/* a\n b */      {}");
  EXPECT_EQ(Rewritten("import './a' /* c */ with {}"), "import './a'assert/* c */ {}");
}

TEST(ImportAttributes, AnEscapedQuoteStaysInsideTheSpecifier) {
  EXPECT_EQ(Rewritten("import q from './it\\'s.json' with { type: 'json' };"),
            "import q from './it\\'s.json'assert{ type: 'json' };");
}

TEST(ImportAttributes, ClauseLookalikesInStringsTemplatesCommentsAndRegexesStay) {
  const std::string source =
      "const s = \"import a from './a.json' with { type: 'json' }\";\n"
      "const t = `export { x } from './y.mjs' with {} ${ `import 'z' with {}` }`;\n"
      "// import './c.mjs' with {}\n"
      "/* import './d.mjs' with {} */\n"
      "const r = /import 'x' with {/;\n"
      "const q = a / 2 / import_ / 'x';\n"
      "label: { from 'y' }\n";
  std::string copy = source;
  EXPECT_EQ(RewriteImportAttributes(&copy), 0u);
  EXPECT_EQ(copy, source);
}

TEST(ImportAttributes, ScanningResumesCorrectlyAfterTemplatesAndRegexes) {
  EXPECT_EQ(Rewritten("const t = `${ {a: '`'}.a }`;\nimport './a' with {};"),
            "const t = `${ {a: '`'}.a }`;\nimport './a'assert{};");
  EXPECT_EQ(Rewritten("const r = /['\"]/g;\nimport './a' with {};"),
            "const r = /['\"]/g;\nimport './a'assert{};");
  EXPECT_EQ(Rewritten("const r = /[/']/;\nimport './a' with {};"),
            "const r = /[/']/;\nimport './a'assert{};");
  EXPECT_EQ(Rewritten("x = a / 2; y = b / '\\'';\nimport './a' with {};"),
            "x = a / 2; y = b / '\\'';\nimport './a'assert{};");
  EXPECT_EQ(Rewritten("#!/usr/bin/env hostloop '\nimport './a' with {};"),
            "#!/usr/bin/env hostloop '\nimport './a'assert{};");
}

TEST(ImportAttributes, AWithStatementIsLeftForV8ToReport) {
  const std::string source = "import './a.mjs'\nwith (a) { console.log(a) }\n";
  std::string copy = source;
  EXPECT_EQ(RewriteImportAttributes(&copy), 0u);
  EXPECT_EQ(copy, source);
}

}  // namespace
}  // namespace hostloop::runtime
