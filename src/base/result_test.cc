#include "base/result.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace hostloop::base {
namespace {

Result<int> Half(int value) {
  if (value % 2 != 0) return Error{EINVAL, "odd"};
  return value / 2;
}

Result<int> Quarter(int value) {
  int half = TRY(Half(value));
  return TRY(Half(half));
}

Result<void> CheckEven(int value) {
  TRY(Half(value));
  return {};
}

TEST(Result, TryPropagatesTheFirstError) {
  EXPECT_EQ(Quarter(8).value(), 2);
  Result<int> failed = Quarter(6);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().code, EINVAL);
  EXPECT_EQ(failed.error().message, "odd");
  EXPECT_TRUE(CheckEven(4).ok());
  EXPECT_FALSE(CheckEven(3).ok());
}

TEST(Result, FromErrnoNamesTheCallAndTheReason) {
  Error error = Error::FromErrno("open", ENOENT);
  EXPECT_EQ(error.code, ENOENT);
  EXPECT_EQ(error.message, "open: No such file or directory");
}

}  // namespace
}  // namespace hostloop::base
