#include "base/file_util.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <thread>

#include "base/read_canceller.h"

namespace hostloop::base {
namespace {

// A FIFO in a fresh directory, both removed at the end.
class Fifo {
 public:
  Fifo() {
    char templ[] = "/tmp/hostloop-fifo-XXXXXX";
    CHECK(::mkdtemp(templ) != nullptr);
    directory_ = templ;
    path_ = directory_ + "/script.mjs";
    CHECK(::mkfifo(path_.c_str(), 0600) == 0);
  }
  ~Fifo() {
    ::unlink(path_.c_str());
    ::rmdir(directory_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string directory_;
  std::string path_;
};

TEST(ReadFileToString, CancelEndsTheReadOfAFifoNobodyWrites) {
  Fifo fifo;
  ReadCanceller canceller;
  // Whether it lands before the read waits or during the wait, the read ends.
  std::thread canceling([&] { canceller.Cancel(); });
  Result<std::string> contents = ReadFileToString(fifo.path(), &canceller);
  canceling.join();
  ASSERT_FALSE(contents.ok());
  EXPECT_EQ(contents.error().code, ECANCELED);
  // Every later read that would wait ends too.
  Result<std::string> again = ReadFileToString(fifo.path(), &canceller);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, ECANCELED);
}

TEST(ReadFileToString, ReadsAFifoUntilItsWriterCloses) {
  Fifo fifo;
  ReadCanceller canceller;
  // The writer's open() waits for the reader's; the reader, opening without
  // waiting, must not take the FIFO with no writer yet for an empty one.
  std::thread writing([&] {
    FILE* file = std::fopen(fifo.path().c_str(), "w");
    ASSERT_NE(file, nullptr);
    std::fputs("console.log(", file);
    std::fflush(file);
    std::fputs("1);\n", file);
    std::fclose(file);
  });
  Result<std::string> contents = ReadFileToString(fifo.path(), &canceller);
  writing.join();
  ASSERT_TRUE(contents.ok()) << contents.error().message;
  EXPECT_EQ(contents.value(), "console.log(1);\n");
}

TEST(ReadFileToString, ReadsAPipeNamedByDevFd) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], "x = 1;\n", 7), 7);
  ::close(fds[1]);
  Result<std::string> contents = ReadFileToString("/dev/fd/" + std::to_string(fds[0]));
  ::close(fds[0]);
  ASSERT_TRUE(contents.ok()) << contents.error().message;
  EXPECT_EQ(contents.value(), "x = 1;\n");
}

TEST(ReadFileToString, ACancelledCancellerLeavesRegularFilesReadable) {
  Fifo fifo;  // for its directory
  const std::string path = fifo.path() + ".txt";
  ASSERT_TRUE(WriteStringToFile(path, "text").ok());
  ReadCanceller canceller;
  canceller.Cancel();
  Result<std::string> contents = ReadFileToString(path, &canceller);
  ::unlink(path.c_str());
  ASSERT_TRUE(contents.ok()) << contents.error().message;
  EXPECT_EQ(contents.value(), "text");
}

}  // namespace
}  // namespace hostloop::base
