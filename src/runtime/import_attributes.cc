#include "runtime/import_attributes.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string_view>
#include <vector>

namespace hostloop::runtime {

namespace {

// Non-ASCII bytes count as identifier characters: the scan needs to tell
// `with` and `from` apart from longer words, not to validate identifiers.
bool IsIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || static_cast<unsigned char>(c) >= 0x80;
}

bool IsLineBreak(char c) { return c == '\n' || c == '\r'; }

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

// Where the comment starting at `begin` ends: past `*/`, or at the line
// break that ends a `//` comment. `begin` is at a '/' followed by '/' or '*'.
std::size_t CommentEnd(const std::string& text, std::size_t begin) {
  if (text[begin + 1] == '/') return std::min(text.find_first_of("\r\n", begin), text.size());
  std::size_t close = text.find("*/", begin + 2);
  return close == std::string::npos ? text.size() : close + 2;
}

bool IsCommentStart(const std::string& text, std::size_t i) {
  return text[i] == '/' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '*');
}

// Past the closing quote of the string literal whose opening quote is at
// `begin`. An unterminated string ends at the line break (V8 reports it).
std::size_t StringEnd(const std::string& text, std::size_t begin) {
  const char quote = text[begin];
  for (std::size_t i = begin + 1; i < text.size(); ++i) {
    if (text[i] == quote) return i + 1;
    if (IsLineBreak(text[i])) return i;
    if (text[i] == '\\') ++i;  // an escape, or a line continuation
  }
  return text.size();
}

// Past the text of a template literal from `i` (after its '`' or after the
// '}' of a substitution) to its closing '`', or to a "${" that opens a
// substitution (then `*substitution` is set).
std::size_t TemplateTextEnd(const std::string& text, std::size_t i, bool* substitution) {
  *substitution = false;
  for (; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '`') {
      return i + 1;
    } else if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '{') {
      *substitution = true;
      return i + 2;
    }
  }
  return text.size();
}

// Past the flags of the regular expression literal whose '/' is at `begin`.
// A '/' in a class (`[/]`) does not end it.
std::size_t RegexEnd(const std::string& text, std::size_t begin) {
  bool in_class = false;
  std::size_t i = begin + 1;
  for (; i < text.size() && !IsLineBreak(text[i]); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '[') {
      in_class = true;
    } else if (text[i] == ']') {
      in_class = false;
    } else if (text[i] == '/' && !in_class) {
      ++i;
      break;
    }
  }
  while (i < text.size() && IsIdentifierChar(text[i])) ++i;
  return i;
}

struct Token {
  enum class Kind { kNone, kIdentifier, kString, kPunctuator, kLiteral };
  Kind kind = Kind::kNone;
  std::string_view text;
  std::size_t end = 0;  // offset past the token

  bool Is(Kind k, std::string_view spelling) const { return kind == k && text == spelling; }
};

// Whether a '/' after `previous` (preceded by `before`) starts a regular
// expression rather than a division: after an operator or an opening
// bracket, and after the keywords an expression follows.
bool RegexCanFollow(const Token& previous, const Token& before) {
  switch (previous.kind) {
    case Token::Kind::kNone:
      return true;
    case Token::Kind::kPunctuator:
      return previous.text != ")" && previous.text != "]";
    case Token::Kind::kIdentifier: {
      // `x.return / 2` is a property.
      if (before.Is(Token::Kind::kPunctuator, ".")) return false;
      static constexpr std::string_view kKeywords[] = {
          "await", "case", "delete", "do",    "else",   "extends", "in",   "instanceof",
          "new",   "of",   "return", "throw", "typeof", "void",    "yield"};
      return std::find(std::begin(kKeywords), std::end(kKeywords), previous.text) !=
             std::end(kKeywords);
    }
    case Token::Kind::kString:
    case Token::Kind::kLiteral:
      return false;
  }
  return false;
}

// An attribute clause: offsets of the end of the specifier string, of
// `with`, and of the `{` after it.
struct Clause {
  std::size_t specifier_end;
  std::size_t with;
  std::size_t brace;
};

std::vector<Clause> FindClauses(const std::string& text) {
  std::vector<Clause> clauses;
  Token previous;
  Token before;  // the token before `previous`
  std::optional<Clause> awaiting_brace;
  // One entry per open '{': true for a template substitution's "${", whose
  // '}' continues the template's text.
  std::vector<bool> braces;
  // A hashbang line is a comment.
  std::size_t i =
      text.compare(0, 2, "#!") == 0 ? std::min(text.find_first_of("\r\n"), text.size()) : 0;
  while (i < text.size()) {
    const char c = text[i];
    if (IsBlank(c) || IsLineBreak(c)) {
      ++i;
      continue;
    }
    if (IsCommentStart(text, i)) {
      i = CommentEnd(text, i);
      continue;
    }
    Token token;
    std::size_t end = i + 1;
    bool substitution = false;
    if (c == '\'' || c == '"') {
      token.kind = Token::Kind::kString;
      end = StringEnd(text, i);
    } else if (c == '`' || (c == '}' && !braces.empty() && braces.back())) {
      if (c == '}') braces.pop_back();
      token.kind = Token::Kind::kLiteral;
      end = TemplateTextEnd(text, i + 1, &substitution);
      if (substitution) braces.push_back(true);
    } else if (c == '/' && RegexCanFollow(previous, before)) {
      token.kind = Token::Kind::kLiteral;
      end = RegexEnd(text, i);
    } else if (IsIdentifierChar(c)) {
      token.kind = Token::Kind::kIdentifier;
      while (end < text.size() && IsIdentifierChar(text[end])) ++end;
    } else {
      token.kind = Token::Kind::kPunctuator;
      if (c == '{') braces.push_back(false);
      if (c == '}' && !braces.empty()) braces.pop_back();
    }
    token.text = std::string_view(text).substr(i, end - i);
    token.end = end;

    if (awaiting_brace && token.Is(Token::Kind::kPunctuator, "{")) {
      awaiting_brace->brace = i;
      clauses.push_back(*awaiting_brace);
    }
    awaiting_brace.reset();
    if (token.Is(Token::Kind::kIdentifier, "with") && previous.kind == Token::Kind::kString &&
        (before.Is(Token::Kind::kIdentifier, "from") ||
         before.Is(Token::Kind::kIdentifier, "import"))) {
      awaiting_brace = Clause{previous.end, i, 0};
    }
    before = previous;
    previous = token;
    i = end;
  }
  return clauses;
}

// Appends "assert" and the text between the specifier and the clause's `{`
// with `with` blanked out, less up to six blanks on the specifier's line
// (see the header).
void AppendRewrittenGap(const std::string& text, const Clause& clause, std::string* out) {
  static constexpr std::string_view kAssert = "assert";
  std::size_t droppable = kAssert.size();
  bool on_specifier_line = true;
  auto blank = [&](char c) {
    if (on_specifier_line && droppable > 0) {
      --droppable;
    } else {
      *out += c;
    }
  };
  *out += kAssert;
  std::size_t i = clause.specifier_end;
  while (i < clause.brace) {
    if (i == clause.with) {
      for (int k = 0; k < 4; ++k) blank(' ');
      i += 4;
    } else if (IsCommentStart(text, i)) {
      const std::size_t end = CommentEnd(text, i);
      if (std::find_if(text.begin() + i, text.begin() + end, IsLineBreak) != text.begin() + end) {
        on_specifier_line = false;
      }
      out->append(text, i, end - i);
      i = end;
    } else {
      if (IsLineBreak(text[i])) on_specifier_line = false;
      if (IsBlank(text[i])) {
        blank(text[i]);
      } else {
        *out += text[i];
      }
      ++i;
    }
  }
}

}  // namespace

std::size_t RewriteImportAttributes(std::string* source) {
  const std::vector<Clause> clauses = FindClauses(*source);
  if (clauses.empty()) return 0;
  const std::string& text = *source;
  std::string rewritten;
  rewritten.reserve(text.size() + 2 * clauses.size());
  std::size_t copied = 0;
  for (const Clause& clause : clauses) {
    rewritten.append(text, copied, clause.specifier_end - copied);
    AppendRewrittenGap(text, clause, &rewritten);
    copied = clause.brace;
  }
  rewritten.append(text, copied);
  *source = std::move(rewritten);
  return clauses.size();
}

}  // namespace hostloop::runtime
