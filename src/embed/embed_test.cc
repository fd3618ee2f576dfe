// The embedding API (include/hostloop/hostloop.h) as an application uses it.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <v8.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "hostloop/hostloop.h"
#include "runtime/native_module.h"
#include "runtime/runtime.h"

namespace {

// Whether Runtime::Create before Engine::Initialize returned null with an
// error (checked in main(), before the engine exists).
bool g_create_before_initialize_refused = false;
std::string g_create_before_initialize_error;

// Runs `code` as the main module of a fresh runtime until the loop is idle;
// returns the exit code.
// The runtime RunProgram runs (for native functions that call back into it).
hostloop::Runtime* g_nested_runtime = nullptr;

int RunProgram(const std::string& code, bool* started = nullptr) {
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  g_nested_runtime = runtime.get();
  bool ok = runtime->EvaluateModule(code, "embed_test.mjs");
  if (started != nullptr) *started = ok;
  looper->Run();
  int exit_code = runtime->exit_code();
  g_nested_runtime = nullptr;
  return exit_code;
}

TEST(Embed, ALooperWithFewScheduledSlotsRefusesTimersAndDelayedTasksWithARangeError) {
  // Looper::Options::max_scheduled bounds the pending timers: setTimeout
  // throws, and a delayed scheduler.postTask rejects, with a RangeError (the
  // postTask was dropped without a word: its promise never settled); once
  // there is room again both work.
  hostloop::Looper::Options options;
  options.max_scheduled = 50;
  auto looper = std::move(hostloop::Looper::Create(options)).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  ASSERT_TRUE(runtime->EvaluateModule(
      "const ids = [];\n"
      "let full;\n"
      "try { for (;;) ids.push(setTimeout(() => {}, 1e6)); } catch (e) { full = e; }\n"
      "if (!(full instanceof RangeError)) throw new Error('setTimeout: ' + full);\n"
      "if (ids.length < 40 || ids.length > 50) throw new Error('timers: ' + ids.length);\n"
      "const refused = await scheduler.postTask(() => 'ran', { delay: 1 }).then(\n"
      "  () => 'ran', (e) => e instanceof RangeError ? 'RangeError' : String(e));\n"
      "if (refused !== 'RangeError') throw new Error('postTask when full: ' + refused);\n"
      "for (const id of ids) clearTimeout(id);\n"
      "// In the same task: the cleared timers' slots are free at once.\n"
      "clearTimeout(setTimeout(() => {}, 1));\n"
      "const ran = await scheduler.postTask(() => 'ran', { delay: 1 });\n"
      "if (ran !== 'ran') throw new Error('postTask with room: ' + ran);\n"));
  looper->Run();
  EXPECT_EQ(runtime->exit_code(), 0);
}

// Several runtimes on one Looper: each one's errors built in C++ (a caught
// failed import, a throwing native function, a failed fs call) belong to its
// own isolate. Each kept its isolate entered for life, so V8's "current
// isolate" was the last one created: the error was made in the other's heap
// (a fatal V8 error), or, once the others were destroyed out of order,
// through no isolate at all (a segmentation fault). Found by an exploratory
// run.
const char kCaughtImport[] =
    "let caught = '';\n"
    "try { await import('./does-not-exist.mjs'); } catch (e) { caught = e.message; }\n"
    "if (!caught.includes('does-not-exist')) throw new Error('caught: ' + caught);\n"
    "const fs = await import('hostloop:fs');\n"
    "let code = '';\n"
    "try { await fs.readFile('/no/such/file'); } catch (e) { code = e.code; }\n"
    "if (code !== 'ENOENT') throw new Error('fs: ' + code);\n";

TEST(Embed, TwoRuntimesOnOneLooperEachMakeTheirOwnErrors) {
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> first = hostloop::Runtime::Create(looper.get());
  std::unique_ptr<hostloop::Runtime> second = hostloop::Runtime::Create(looper.get());
  ASSERT_TRUE(first->EvaluateModule(kCaughtImport, "first.mjs"));
  ASSERT_TRUE(second->EvaluateModule(kCaughtImport, "second.mjs"));
  looper->Run();
  EXPECT_EQ(first->exit_code(), 0);
  EXPECT_EQ(second->exit_code(), 0);
  // Destroyed in creation order, not the reverse: the one left still works.
  first.reset();
  ASSERT_TRUE(second->EvaluateModule(kCaughtImport, "again.mjs"));
  looper->Run();
  EXPECT_EQ(second->exit_code(), 0);
}

TEST(Embed, CreateBeforeEngineInitializeIsRefusedWithAnError) {
  EXPECT_TRUE(g_create_before_initialize_refused);
  EXPECT_NE(g_create_before_initialize_error.find("Engine::Initialize"), std::string::npos)
      << g_create_before_initialize_error;
}

TEST(Embed, NativeModuleExportsNumericAndDefaultNames) {
  // An own `default` is the default export; a numeric key is a named export
  // by its string. (Both crashed: a duplicate "default", and a number cast
  // to a string.)
  bool started = false;
  int code = RunProgram(
      "import * as names from 'hostloop:embed_test_names';\n"
      "import fallback from 'hostloop:embed_test_names';\n"
      "const keys = Object.keys(names).sort().join(',');\n"
      "if (keys !== '0,default,ok') throw new Error(`exports: ${keys}`);\n"
      "if (names['0']() !== 0 || names.ok() !== 1) throw new Error('values');\n"
      "if (fallback() !== 'the default') throw new Error('default export');\n",
      &started);
  EXPECT_TRUE(started);
  EXPECT_EQ(code, 0);
}

TEST(Embed, ModuleFactoryThatReturnsNothingFailsTheImport) {
  // Dynamic import: rejected with an Error (it crashed, rejecting with no value).
  EXPECT_EQ(
      RunProgram(
          "await import('hostloop:embed_test_empty').then(\n"
          "  () => { throw new Error('imported'); },\n"
          "  (error) => { if (!(error instanceof Error)) throw new Error('not an Error'); });\n"),
      0);
  // Static import: the module does not load, an error exit (it was 0).
  bool started = true;
  EXPECT_EQ(RunProgram("import 'hostloop:embed_test_empty';\n", &started), 1);
  EXPECT_FALSE(started);
}

TEST(Embed, ANativeModuleWhoseExportGetterThrowsFailsTheImport) {
  // V8 stopped the process ("Check failed: has_pending_exception()"): the
  // getter's exception was taken by a TryCatch further up. Found by an
  // exploratory run.
  EXPECT_EQ(RunProgram("const failed = await import('hostloop:embed_test_throwing_getter').then(\n"
                       "  () => 'imported', (e) => e.message);\n"
                       "if (failed !== 'no config') throw new Error(failed);\n"),
            0);
  bool started = true;
  EXPECT_EQ(RunProgram("import { config } from 'hostloop:embed_test_throwing_getter';\n", &started),
            1);
}

TEST(Embed, EvaluateModuleOnAStoppedRuntimeSaysWhyItRunsNothing) {
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  runtime->EvaluateModule("throw new Error('stops the runtime');", "first.mjs");
  looper->Run();
  ASSERT_TRUE(runtime->stopped());
  testing::internal::CaptureStderr();
  EXPECT_FALSE(runtime->EvaluateModule("globalThis.ran = true;", "second.mjs"));
  EXPECT_FALSE(runtime->RunModule("third.mjs"));
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_NE(said.find("EvaluateModule: the runtime was stopped (exit code 1)"), std::string::npos)
      << said;
  EXPECT_NE(said.find("RunModule: the runtime was stopped"), std::string::npos) << said;
}

TEST(Embed, EachUnnamedEvaluateModuleRunsAndAReusedNameIsRefused) {
  // Every EvaluateModule without a name ran under one URL: the second call
  // found the first module in the map, ignored its own source, and said true.
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  EXPECT_TRUE(runtime->EvaluateModule("globalThis.ran = ['first'];"));
  EXPECT_TRUE(runtime->EvaluateModule("globalThis.ran.push('second');"));
  // A corrected source under a name whose module failed to parse: refused
  // with a message, not the old SyntaxError again.
  EXPECT_FALSE(runtime->EvaluateModule("this is not javascript", "fix.mjs"));
  EXPECT_FALSE(runtime->EvaluateModule("globalThis.ran.push('fixed');", "fix.mjs"));
  EXPECT_TRUE(runtime->EvaluateModule("globalThis.ran.push('renamed');", "fix2.mjs"));
  looper->Run();
  v8::HandleScope scope(runtime->isolate());
  v8::Local<v8::Context> context = runtime->context();
  v8::Local<v8::Value> ran =
      context->Global()->Get(context, v8::String::NewFromUtf8Literal(runtime->isolate(), "ran"))
          .ToLocalChecked();
  v8::String::Utf8Value text(runtime->isolate(), ran);
  EXPECT_STREQ(*text, "first,second,renamed");
}

// Several modules in one runtime: one whose top-level await can never
// settle is exit code 13, named in the message, whichever order the others
// settle in (any module settling set the runtime's state for all: exit 0).
TEST(Embed, AnUnsettledModuleAmongSeveralIsExitCode13) {
  for (bool stuck_first : {true, false}) {
    auto looper = std::move(hostloop::Looper::Create()).value();
    std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
    const char* stuck = "await new Promise(() => {});";
    const char* settles = "await new Promise((resolve) => setTimeout(resolve, 20));";
    ASSERT_TRUE(runtime->EvaluateModule(stuck_first ? stuck : settles, "first.mjs"));
    ASSERT_TRUE(runtime->EvaluateModule(stuck_first ? settles : stuck, "second.mjs"));
    ASSERT_TRUE(runtime->EvaluateModule("globalThis.third = true;", "third.mjs"));
    looper->Run();
    testing::internal::CaptureStderr();
    EXPECT_EQ(runtime->exit_code(), 13) << (stuck_first ? "stuck first" : "stuck second");
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find(stuck_first ? "first.mjs" : "second.mjs"), std::string::npos) << err;
    EXPECT_EQ(err.find(stuck_first ? "second.mjs" : "first.mjs"), std::string::npos) << err;
  }
}

TEST(Embed, ExitCodeAskedBeforeTheLoopIsIdleDecidesNothing) {
  // exit_code() before Run() took the pending top-level await for one that
  // can never settle: it printed, and stuck at 13 after the await settled.
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  ASSERT_TRUE(runtime->EvaluateModule("await new Promise((resolve) => setTimeout(resolve, 5));"));
  EXPECT_EQ(runtime->exit_code(), 0);
  looper->Run();
  EXPECT_EQ(runtime->exit_code(), 0);
  // One that can never settle: 13 once the loop is idle, and again.
  ASSERT_TRUE(runtime->EvaluateModule("await new Promise(() => {});", "never.mjs"));
  looper->Run();
  EXPECT_EQ(runtime->exit_code(), 13);
  EXPECT_EQ(runtime->exit_code(), 13);
}

TEST(Embed, EvaluateModuleCalledFromJsLeavesTheMicrotasksToTheEndOfTheTask) {
  // A native function that evaluates a module, called from a JS task: the
  // microtasks that task queued ran inside the call (in the middle of the
  // task), before the rest of the task (L5).
  bool started = false;
  int code = RunProgram(
      "import { evalNested } from 'hostloop:embed_test_nested';\n"
      "const order = [];\n"
      "globalThis.order = order;\n"
      "await new Promise((resolve) => setTimeout(() => {\n"
      "  Promise.resolve().then(() => { order.push('microtask'); resolve(); });\n"
      "  evalNested();\n"
      "  order.push('rest of the task');\n"
      "}, 1));\n"
      "const got = order.join(', ');\n"
      "if (got !== 'nested module, rest of the task, microtask') throw new Error(got);\n",
      &started);
  EXPECT_TRUE(started);
  EXPECT_EQ(code, 0);
}

TEST(Embed, AStoppedRuntimeNoLongerKeepsItsLooperAlive) {
  // Two runtimes on one Looper; one stops itself (an uncaught error) with a
  // long timer pending. Its work never runs again, so it must not keep the
  // loop running: the next Run() ends when the other runtime is done (it
  // waited for the stopped runtime's timer, ten minutes here).
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> stops = hostloop::Runtime::Create(looper.get());
  std::unique_ptr<hostloop::Runtime> other = hostloop::Runtime::Create(looper.get());
  ASSERT_TRUE(stops->EvaluateModule(
      "setTimeout(() => {}, 600000);\n"
      "setTimeout(() => { throw new Error('boom'); }, 1);\n"));
  ASSERT_TRUE(other->EvaluateModule("await new Promise((resolve) => setTimeout(resolve, 50));"));
  EXPECT_EQ(looper->Run(), hostloop::Looper::RunResult::kQuit);
  EXPECT_TRUE(stops->stopped());
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(looper->Run(), hostloop::Looper::RunResult::kIdle);
  // Generous bound: the other runtime needs ~50 ms.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  EXPECT_EQ(stops->exit_code(), 1);
  EXPECT_EQ(other->exit_code(), 0);
}

TEST(Embed, PerformMicrotaskCheckpointRunsReactionsOfJsCalledFromCxx) {
  // C++ calls a JS function through isolate()/context() between two Run()s;
  // its promise reaction ran only with some later entry (or never).
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  ASSERT_TRUE(runtime->EvaluateModule(
      "globalThis.log = [];\n"
      "globalThis.fromCxx = (x) => { Promise.resolve(x).then((v) => log.push(v * 2)); };\n"));
  looper->Run();
  v8::Isolate* isolate = runtime->isolate();
  v8::HandleScope scope(isolate);
  v8::Local<v8::Context> context = runtime->context();
  auto global = [&](const char* name) {
    return context->Global()->Get(context, v8::String::NewFromUtf8(isolate, name).ToLocalChecked())
        .ToLocalChecked();
  };
  v8::Local<v8::Value> argv[] = {v8::Number::New(isolate, 21)};
  ASSERT_FALSE(global("fromCxx").As<v8::Function>()->Call(context, context->Global(), 1, argv).IsEmpty());
  runtime->PerformMicrotaskCheckpoint();
  v8::String::Utf8Value text(isolate, global("log"));
  EXPECT_STREQ(*text, "42");
}

TEST(Embed, ACxxExceptionFromANativeFunctionBecomesAJsError) {
  // It unwound through V8's frames: std::terminate.
  EXPECT_EQ(RunProgram("import { fails } from 'hostloop:embed_test_throws';\n"
                       "let caught;\n"
                       "try { fails(); } catch (error) { caught = error; }\n"
                       "if (!(caught instanceof Error) || !caught.message.includes('out of widgets'))\n"
                       "  throw new Error(`caught ${caught}`);\n"),
            0);
}

}  // namespace

// A Runtime used from another thread than the one that created it stops
// the process with a message, not a data race inside V8.
TEST(Embed, EngineInitializeAgainReturnsFalseWithAnError) {
  // It was a CHECK failure. (Again after Shutdown(): checked in main().)
  std::string error = "stale";
  EXPECT_FALSE(hostloop::Engine::Initialize("embed_test", {}, &error));
  EXPECT_NE(error.find("already initialized"), std::string::npos) << error;
}

TEST(Embed, AJsonFunctionResultLongerThanAV8StringIsARangeError) {
  // It stopped the process (ToLocalChecked on the failed string).
  EXPECT_EQ(RunProgram("import { huge } from 'hostloop:embed_test_huge';\n"
                       "let caught;\n"
                       "try { huge(); } catch (error) { caught = error; }\n"
                       "if (!(caught instanceof RangeError)) throw new Error(`got ${caught}`);\n"),
            0);
}

// What the embed_test_watchdog module's functions saw.
std::atomic<bool> g_endless_loop_entered{false};
std::atomic<int> g_calls_after_stop{0};

TEST(Embed, RuntimeStopperEndsAnEndlessLoopFromAnotherThread) {
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  hostloop::RuntimeStopper stopper = runtime->stopper();
  // A timer spins for ever; a second one, due as soon, and a microtask it
  // queues first, must not run once the stop is requested.
  ASSERT_TRUE(runtime->EvaluateModule(
      "import { entered, after } from 'hostloop:embed_test_watchdog';\n"
      "setTimeout(() => { queueMicrotask(after); entered(); for (;;) {} }, 0);\n"
      "setTimeout(after, 0);\n"));
  std::thread watchdog([&] {
    while (!g_endless_loop_entered.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    stopper.Stop(7);
    stopper.Stop(9);  // only the first request counts
  });
  looper->Run();  // returns only once the runtime stopped
  watchdog.join();
  EXPECT_TRUE(runtime->stopped());
  EXPECT_EQ(runtime->exit_code(), 7);
  EXPECT_EQ(g_calls_after_stop.load(), 0);
  runtime.reset();
  stopper.Stop(1);  // after the runtime: nothing
}

TEST(Embed, RuntimeStopperRacingEvaluateModuleStopsTheRuntime) {
  // A stop requested as the home thread starts evaluating a module: V8
  // 10.2 stopped the process (CHECK module->status() == kErrored) when the
  // termination landed before the module was on its evaluation stack.
  auto looper = std::move(hostloop::Looper::Create()).value();
  for (int round = 0; round < 150; ++round) {
    std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
    hostloop::RuntimeStopper stopper = runtime->stopper();
    std::thread watchdog([stopper] { stopper.Stop(10); });
    runtime->EvaluateModule("let x = 0; setInterval(() => { x++; }, 1); while (x < 1e5) x++;");
    looper->Run();
    watchdog.join();
    ASSERT_TRUE(runtime->stopped()) << "round " << round;
    ASSERT_EQ(runtime->exit_code(), 10) << "round " << round;
  }
}

TEST(Embed, RuntimeStopperEndsTheReadOfAFifoModuleNobodyWrites) {
  // A FIFO waits in read() for a writer, outside JS: the stop must end the
  // wait too, or the home thread stays in EvaluateModule for ever.
  char directory[] = "/tmp/hostloop-embed-XXXXXX";
  ASSERT_NE(::mkdtemp(directory), nullptr);
  const std::string fifo = std::string(directory) + "/fifo.mjs";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  hostloop::RuntimeStopper stopper = runtime->stopper();
  // Before the read or during it: either way it ends.
  std::thread watchdog([stopper] { stopper.Stop(4); });
  runtime->EvaluateModule("import 'file://" + fifo + "';");
  looper->Run();
  watchdog.join();
  EXPECT_TRUE(runtime->stopped());
  EXPECT_EQ(runtime->exit_code(), 4);
  ::unlink(fifo.c_str());
  ::rmdir(directory);
}

TEST(Embed, RuntimeStopperStopsAnIdleRuntime) {
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  // An hour's timer would keep the loop asleep (and alive) until then.
  ASSERT_TRUE(runtime->EvaluateModule("setTimeout(() => {}, 3600 * 1000);"));
  hostloop::RuntimeStopper stopper = runtime->stopper();
  std::thread watchdog([stopper] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    stopper.Stop(3);
  });
  looper->Run();
  watchdog.join();
  EXPECT_TRUE(runtime->stopped());
  EXPECT_EQ(runtime->exit_code(), 3);
}

TEST(EmbedDeathTest, RuntimeUsedOffItsHomeThreadChecks) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  hostloop::Runtime* raw = runtime.get();
  EXPECT_DEATH(
      {
        std::thread other([raw] { raw->EvaluateModule("1", "off_thread.mjs"); });
        other.join();
      },
      "home thread");
  hostloop::Looper* raw_looper = looper.get();
  EXPECT_DEATH(
      {
        std::thread other([raw_looper] { (void)raw_looper->WatchFd(0, 0, [](uint32_t) {}); });
        other.join();
      },
      "home thread");
}

// Engine::Shutdown() with a Runtime alive used to return, and the runtime's
// destruction then crashed; now it stops with a message at once.
TEST(EmbedDeathTest, EngineShutdownWithARuntimeAliveChecks) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  EXPECT_DEATH(hostloop::Engine::Shutdown(), "while a hostloop::Runtime is alive");
}

// A Runtime destroyed from inside one of its native functions stopped the
// process in a use-after-free; now it stops it with a message. The same
// native function run by V8 as a promise reaction has no JS frame under it:
// the check missed that one, and the isolate was disposed in the middle of
// the microtask checkpoint (a use-after-free, SEGV).
std::unique_ptr<hostloop::Runtime>* g_runtime_to_destroy = nullptr;

TEST(EmbedDeathTest, RuntimeDestroyedFromItsOwnNativeFunctionChecks) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  g_runtime_to_destroy = &runtime;
  const struct {
    const char* source;
    const char* name;
  } kCalls[] = {
      {"import { destroy } from 'hostloop:embed_test_destroy'; destroy();", "destroy.mjs"},
      {"import { destroy } from 'hostloop:embed_test_destroy';"
       "setTimeout(() => { Promise.resolve(1).then(destroy); }, 1);",
       "destroy_reaction.mjs"},
      // No JS frame under these two (a segfault inside the library before).
      {"import 'hostloop:embed_test_destroy_in_factory';", "destroy_factory.mjs"},
      {"import { job } from 'hostloop:embed_test_destroy_on_completion'; job();",
       "destroy_completion.mjs"},
  };
  for (const auto& call : kCalls) {
    EXPECT_DEATH(
        {
          runtime->EvaluateModule(call.source, call.name);
          looper->Run();
        },
        "destroyed while its JavaScript runs")
        << call.name;
  }
  g_runtime_to_destroy = nullptr;
  // Destroyed from a task of its Looper, outside JS, it goes quietly.
  looper->Post([&runtime] { runtime.reset(); });
  looper->Run();
  EXPECT_EQ(runtime, nullptr);
}

// The Looper destroyed before a Runtime on it: the Looper's message, also
// when the runtime had stopped (an uncaught error) and its EventLoop was
// already shut down (the runtime then used the freed Looper, and said it
// was used off its home thread).
TEST(EmbedDeathTest, ALooperDestroyedBeforeItsRuntimeChecks) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  for (const char* source : {"", "throw new Error('boom')"}) {
    EXPECT_DEATH(
        {
          std::unique_ptr<hostloop::Runtime> runtime;
          {
            auto looper = std::move(hostloop::Looper::Create()).value();
            runtime = hostloop::Runtime::Create(looper.get());
            runtime->EvaluateModule(source);
            looper->Run();
          }
        },
        "destroy the runtimes created on a Looper before destroying the Looper")
        << source;
  }
}

// A native function of runtime A that calls runtime B's API (here B's
// exit_code(), then a C++ exception in A) must find A's isolate current when
// B's call returns: B's stayed current, and A's error was built in B's heap
// (V8's fatal "Cannot create a handle without a HandleScope"). Destroying B
// from A's native function, then failing in A, was a SIGSEGV.
hostloop::Runtime* g_other_runtime = nullptr;
std::unique_ptr<hostloop::Runtime>* g_other_to_destroy = nullptr;
hostloop::Looper* g_spawn_looper = nullptr;
std::unique_ptr<hostloop::Runtime> g_spawned;

TEST(Embed, ANativeFunctionCallingAnotherRuntimeLeavesItsOwnIsolateCurrent) {
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> a = hostloop::Runtime::Create(looper.get());
  std::unique_ptr<hostloop::Runtime> b = hostloop::Runtime::Create(looper.get());
  g_other_runtime = b.get();
  g_other_to_destroy = &b;
  ASSERT_TRUE(a->EvaluateModule(
      "import { peek, dropOther, fail } from 'hostloop:embed_test_cross';"
      "const seen = [];"
      "seen.push('B exit code ' + peek());"
      "try { fail(); } catch (e) { seen.push('caught ' + e.message); }"
      "dropOther();"
      "try { fail(); } catch (e) { seen.push('caught ' + e.message); }"
      "if (seen.join('|') !== 'B exit code 0|caught a native function threw: no widgets|caught a "
      "native function threw: no widgets') throw new Error(seen.join('|'));",
      "cross.mjs"));
  looper->Run();
  EXPECT_EQ(a->exit_code(), 0);
  EXPECT_EQ(b, nullptr);
  g_other_runtime = nullptr;
  g_other_to_destroy = nullptr;
}

// Runtime::Create from a native function of another runtime: the new
// isolate was left current, and the caller's next error was built in it (V8
// fatal: "Cannot create a handle without a HandleScope", exit 133).
TEST(Embed, ANativeFunctionCreatingARuntimeLeavesItsOwnIsolateCurrent) {
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> a = hostloop::Runtime::Create(looper.get());
  g_spawn_looper = looper.get();
  ASSERT_TRUE(a->EvaluateModule(
      "import { spawn, fail } from 'hostloop:embed_test_cross';"
      "spawn();"
      "let caught = '';"
      "try { fail(); } catch (e) { caught = e.message; }"
      "if (caught !== 'a native function threw: no widgets') throw new Error(caught);",
      "spawn.mjs"));
  looper->Run();
  EXPECT_EQ(a->exit_code(), 0);
  ASSERT_NE(g_spawned, nullptr);
  ASSERT_TRUE(g_spawned->EvaluateModule("if (1 + 1 !== 2) throw new Error('math');", "b.mjs"));
  looper->Run();
  EXPECT_EQ(g_spawned->exit_code(), 0);
  g_spawned.reset();
  g_spawn_looper = nullptr;
}

// A Looper with the application's own clock: a worker's Looper shares it
// (it had the default one, and binding the worker's EventLoop, made with the
// parent's clock, failed a CHECK: the process aborted at `new Worker`).
TEST(Embed, AWorkerOfALooperWithItsOwnClockRuns) {
  struct ForwardingClock : hostloop::base::TickClock {
    hostloop::base::TimePoint Now() const override {
      return hostloop::base::TickClock::Default()->Now();
    }
  };
  static ForwardingClock clock;
  hostloop::Looper::Options options;
  options.clock = &clock;
  auto looper = std::move(hostloop::Looper::Create(options)).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  ASSERT_TRUE(runtime->EvaluateModule(
      "const w = new Worker('data:text/javascript,setTimeout(() => postMessage(42), 5)',"
      "                     {type: 'module'});"
      "w.onmessage = (e) => { hostloop.exitCode = e.data === 42 ? 7 : 8; w.terminate(); };",
      "clock.mjs"));
  looper->Run();
  EXPECT_EQ(runtime->exit_code(), 7) << "the worker's message did not arrive";
}

TEST(Embed, CreateWithoutALooperIsRefusedWithAnError) {
  std::string error;
  EXPECT_EQ(hostloop::Runtime::Create(nullptr, {}, &error), nullptr);
  EXPECT_NE(error.find("no Looper"), std::string::npos) << error;
}

// A module source longer than V8's longest string: EvaluateModule fails with
// the error printed (it was V8's fatal "Empty MaybeLocal", exit 133).
TEST(Embed, AModuleSourceLongerThanAV8StringIsRefused) {
  auto looper = std::move(hostloop::Looper::Create()).value();
  std::unique_ptr<hostloop::Runtime> runtime = hostloop::Runtime::Create(looper.get());
  std::string source = "//" + std::string(static_cast<std::size_t>(v8::String::kMaxLength), 'x');
  testing::internal::CaptureStderr();
  EXPECT_FALSE(runtime->EvaluateModule(source, "huge.mjs"));
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("too long"), std::string::npos) << "[" << err.substr(0, 300) << "]";
  looper->Run();
}

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  {
    auto looper = std::move(hostloop::Looper::Create()).value();
    std::unique_ptr<hostloop::Runtime> runtime =
        hostloop::Runtime::Create(looper.get(), {}, &g_create_before_initialize_error);
    g_create_before_initialize_refused = runtime == nullptr;
  }
  hostloop::DefineJsonModule(
      "embed_test_names",
      {
          {"0", [](const std::string&) { return std::string("0"); }},
          {"ok", [](const std::string&) { return std::string("1"); }},
          {"default", [](const std::string&) { return std::string("\"the default\""); }},
      });
  hostloop::DefineJsonModule(
      "embed_test_nested",
      {
          {"evalNested",
           [](const std::string&) {
             // The runtime running the test is the only one on this thread.
             g_nested_runtime->EvaluateModule("globalThis.order.push('nested module');");
             return std::string();
           }},
      });
  hostloop::DefineJsonModule(
      "embed_test_throws",
      {
          {"fails",
           [](const std::string&) -> std::string { throw std::runtime_error("out of widgets"); }},
      });
  hostloop::DefineJsonModule(
      "embed_test_destroy",
      {
          {"destroy",
           [](const std::string&) {
             g_runtime_to_destroy->reset();
             return std::string();
           }},
      });
  hostloop::DefineJsonModule(
      "embed_test_cross",
      {
          {"peek", [](const std::string&) { return std::to_string(g_other_runtime->exit_code()); }},
          {"dropOther",
           [](const std::string&) {
             g_other_to_destroy->reset();
             return std::string();
           }},
          {"fail",
           [](const std::string&) -> std::string { throw std::runtime_error("no widgets"); }},
          {"spawn",
           [](const std::string&) {
             g_spawned = hostloop::Runtime::Create(g_spawn_looper);
             return std::string();
           }},
      });
  hostloop::DefineJsonModule(
      "embed_test_huge",
      {
          {"huge",
           [](const std::string&) {
             return std::string(static_cast<std::size_t>(v8::String::kMaxLength) + 1, '1');
           }},
      });
  hostloop::DefineJsonModule(
      "embed_test_watchdog",
      {
          {"entered",
           [](const std::string&) {
             g_endless_loop_entered = true;
             return std::string();
           }},
          {"after",
           [](const std::string&) {
             ++g_calls_after_stop;
             return std::string();
           }},
      });
  hostloop::DefineModule("embed_test_destroy_in_factory", [](v8::Local<v8::Context>) {
    g_runtime_to_destroy->reset();
    return v8::Local<v8::Object>();
  });
  hostloop::DefineModule("embed_test_destroy_on_completion", [](v8::Local<v8::Context> context) {
    v8::Isolate* isolate = context->GetIsolate();
    v8::Local<v8::Object> exports = v8::Object::New(isolate);
    auto job = [](const v8::FunctionCallbackInfo<v8::Value>& info) {
      auto* runtime = hostloop::runtime::Runtime::From(info.GetIsolate());
      info.GetReturnValue().Set(hostloop::runtime::RunAsync<int>(
          runtime, [] { return 1; },
          [](hostloop::runtime::Runtime*, v8::Local<v8::Promise::Resolver>, int) {
            g_runtime_to_destroy->reset();
          }));
    };
    exports
        ->Set(context, v8::String::NewFromUtf8Literal(isolate, "job"),
              v8::Function::New(context, job).ToLocalChecked())
        .Check();
    return exports;
  });
  hostloop::DefineModule("embed_test_empty",
                         [](v8::Local<v8::Context>) { return v8::Local<v8::Object>(); });
  hostloop::DefineModule("embed_test_throwing_getter", [](v8::Local<v8::Context> context) {
    v8::Isolate* isolate = context->GetIsolate();
    v8::Local<v8::Object> exports = v8::Object::New(isolate);
    exports
        ->SetAccessor(context, v8::String::NewFromUtf8Literal(isolate, "config"),
                      [](v8::Local<v8::Name>, const v8::PropertyCallbackInfo<v8::Value>& info) {
                        info.GetIsolate()->ThrowException(v8::Exception::Error(
                            v8::String::NewFromUtf8Literal(info.GetIsolate(), "no config")));
                      })
        .Check();
    return exports;
  });
  std::string error;
  if (!hostloop::Engine::Initialize(argv[0], {}, &error)) {
    std::fprintf(stderr, "Engine::Initialize: %s\n", error.c_str());
    return 1;
  }
  int result = RUN_ALL_TESTS();
  hostloop::Engine::Shutdown();
  // V8 cannot start again in this process: false and a reason, not an abort.
  if (hostloop::Engine::Initialize(argv[0], {}, &error) ||
      error.find("cannot be initialized again") == std::string::npos) {
    std::fprintf(stderr, "Engine::Initialize after Shutdown: expected false and a reason, got '%s'\n",
                 error.c_str());
    return 1;
  }
  // Nor can a runtime be created: the reason says so (it said Initialize
  // had not been called).
  auto looper = std::move(hostloop::Looper::Create()).value();
  error.clear();
  if (hostloop::Runtime::Create(looper.get(), {}, &error) != nullptr ||
      error.find("Shutdown() has been called") == std::string::npos) {
    std::fprintf(stderr, "Runtime::Create after Shutdown: expected null and a reason, got '%s'\n",
                 error.c_str());
    return 1;
  }
  return result;
}
