// PortCore without V8: messages from another thread arrive in order, in
// batches, and the spent messages travel back to the sender through Enqueue
// with their byte buffers bounded per port.
#include "runtime/message_port.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>
#include <vector>

#include "loop/event_loop.h"
#include "loop/looper.h"
#include "runtime/serializer.h"

namespace hostloop::runtime {
namespace {

// Records the number each message carries; quits the looper at `expected`.
class Recorder final : public PortReceiver {
 public:
  Recorder(loop::Looper* looper, std::size_t expected) : looper_(looper), expected_(expected) {}
  void Deliver(SerializedMessage& message) override {
    received.push_back(message.number);
    if (received.size() == expected_) looper_->Quit();
  }
  std::vector<double> received;

 private:
  loop::Looper* const looper_;
  const std::size_t expected_;
};

// A message numbered `n` with a `bytes`-byte buffer, as a serialized object
// would have.
std::unique_ptr<SerializedMessage> Message(double n, std::size_t bytes) {
  auto message = std::make_unique<SerializedMessage>();
  message->inline_value = SerializedMessage::Inline::kNumber;
  message->number = n;
  message->data.reset(static_cast<uint8_t*>(std::malloc(bytes)));
  message->capacity = bytes;
  return message;
}

TEST(PortCore, CrossThreadMessagesArriveInOrderAndComeBackAsBoundedSpares) {
  constexpr std::size_t kCount = 2000;  // several batches
  constexpr std::size_t kBytes = 4096;
  std::unique_ptr<loop::Looper> looper = loop::Looper::Create().value();
  std::shared_ptr<loop::EventLoop> loop = loop::EventLoop::Create(looper->clock());
  loop->Bind(looper.get());
  auto [sender_end, receiver_end] = PortCore::CreatePair();
  Recorder recorder(looper.get(), kCount);
  receiver_end->Attach(&recorder, loop);
  receiver_end->Enable();

  std::thread sender([receiver = receiver_end] {
    for (std::size_t i = 0; i < kCount; ++i) {
      // What comes back is the sender's to reuse (here: to free).
      std::unique_ptr<SerializedMessage> spare = receiver->Enqueue(Message(static_cast<double>(i), kBytes));
    }
  });
  loop->Ref();  // alive until the recorder quits, whenever the sender starts
  looper->Run();
  loop->Unref();
  sender.join();

  std::vector<double> expected;
  for (std::size_t i = 0; i < kCount; ++i) expected.push_back(static_cast<double>(i));
  EXPECT_EQ(recorder.received, expected);

  // Everything was delivered: the spares kept now are what a sender gets
  // back, one per post, and their buffers stay within the port's budget.
  std::size_t spares = 0;
  std::size_t spare_bytes = 0;
  std::thread drain_spares([&, receiver = receiver_end] {
    for (std::size_t i = 0; i < 2 * kCount; ++i) {
      // Tiny messages, so what comes back is what was kept before.
      std::unique_ptr<SerializedMessage> spare = receiver->Enqueue(Message(-1, 1));
      if (!spare) break;
      ++spares;
      spare_bytes += spare->capacity;
      EXPECT_EQ(spare->inline_value, SerializedMessage::Inline::kNone) << "a spare is emptied";
      EXPECT_EQ(spare->size, 0u);
    }
  });
  drain_spares.join();
  EXPECT_GT(spares, 0u) << "delivered messages are recycled for the sender";
  EXPECT_LE(spares, 256u);
  EXPECT_LE(spare_bytes, 64u * 1024u);
  receiver_end->Close();
  sender_end->Close();
  loop->Shutdown();
}

}  // namespace
}  // namespace hostloop::runtime
