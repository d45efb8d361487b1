#include "parallel.h"
#include "cpu_relax.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace jt {
namespace {

thread_local bool in_parallel_region = false;

// Note [Spinning workers]
// A worker asleep on a condition variable takes 100-150 us to wake on this kind of machine, longer
// than an op over 131k floats runs on one thread: every parallel op paid it. So a worker that
// finished a chunk waits for the next job spinning (with pause), then yielding its core to any
// other runnable thread (OpenBLAS's, the JVM's), and only after kSpinFor falls asleep, as
// OpenMP's workers do. The caller likewise spins for its workers before sleeping.
constexpr auto kPauseFor = std::chrono::microseconds(50);
constexpr auto kSpinFor = std::chrono::microseconds(1000);

// Spins until done() or kSpinFor has passed; true when done() held.
template <typename Done>
bool spin_until(Done&& done) {
  const auto start = std::chrono::steady_clock::now();
  for (unsigned i = 1;; ++i) {
    if (done()) return true;
    if ((i & 63) == 0) {
      const auto waited = std::chrono::steady_clock::now() - start;
      if (waited > kSpinFor) return false;
      if (waited > kPauseFor) sched_yield();
    }
    cpu_relax();
  }
}

class ThreadPool {
 public:
  explicit ThreadPool(int n) { resize(n); }

  int size() const { return num_threads_.load(std::memory_order_relaxed); }

  // False when the system refused a thread (a limit on threads or on memory): the pool then keeps
  // the size it had (or, were that refused too, runs on the caller alone), never a size without
  // the workers to match, and nothing is thrown through the C API.
  bool resize(int n) {
    std::lock_guard<std::mutex> run(run_mutex_);
    const int before = size();
    if (start_workers(std::max(1, n))) return true;
    if (!start_workers(before)) start_workers(1);  // one thread starts no worker: it cannot fail
    return false;
  }

  // Returns false (and runs nothing) when another caller is using the pool.
  bool run(int64_t begin, int64_t end, const std::function<void(int64_t, int64_t)>& fn) {
    std::unique_lock<std::mutex> run(run_mutex_, std::try_to_lock);
    if (!run.owns_lock()) return false;
    {
      std::lock_guard<std::mutex> lock(mutex_);  // sleeping workers test generation_ under it
      fn_ = &fn;
      begin_ = begin;
      end_ = end;
      pending_.store(size() - 1, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);  // publishes the job to spinning workers
    }
    wake_.notify_all();
    chunk(0);
    auto finished = [this] { return pending_.load(std::memory_order_acquire) == 0; };
    const bool spun = spin_until(finished);
    std::unique_lock<std::mutex> lock(mutex_);  // error_ is read under it
    if (!spun) done_.wait(lock, finished);
    fn_ = nullptr;
    if (error_) {  // the first chunk's exception, rethrown on the caller's thread
      std::exception_ptr e = error_;
      error_ = nullptr;
      lock.unlock();
      std::rethrow_exception(e);
    }
    return true;
  }

  ~ThreadPool() { stop_workers(); }

 private:
  // An exception must not leave a worker thread (that ends the process): it is kept for run().
  void chunk(int i) {
    const int threads = size();
    int64_t n = end_ - begin_, per = (n + threads - 1) / threads;
    int64_t b = begin_ + i * per, e = std::min(end_, b + per);
    in_parallel_region = true;
    try {
      if (b < e) (*fn_)(b, e);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
    in_parallel_region = false;
  }

  void work(int i, uint64_t seen) {
    auto posted = [&] { return stopping_.load(std::memory_order_acquire) || generation_.load(std::memory_order_acquire) != seen; };
    for (;;) {
      if (!spin_until(posted)) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, posted);
      }
      if (stopping_.load(std::memory_order_acquire)) return;
      seen = generation_.load(std::memory_order_acquire);
      chunk(i);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> lock(mutex_);  // the caller may be testing pending_ before it sleeps
        done_.notify_one();
      }
    }
  }

  // Replaces the workers by n - 1 new ones (run_mutex_ held); false, with no worker left, when one was refused.
  bool start_workers(int n) {
    stop_workers();
    num_threads_.store(1, std::memory_order_relaxed);
    stopping_.store(false, std::memory_order_relaxed);
    // New workers wait for the next job, not for one that ran before they existed: no job can be
    // posted while run_mutex_ is held here, so the current generation is theirs to skip.
    const uint64_t start = generation_.load(std::memory_order_relaxed);
    try {
      workers_.reserve((size_t)n - 1);
      for (int i = 1; i < n; ++i) workers_.emplace_back([this, i, start] { work(i, start); });
    } catch (const std::exception&) {  // std::system_error: no thread; std::bad_alloc
      stop_workers();
      return false;
    }
    num_threads_.store(n, std::memory_order_relaxed);
    return true;
  }

  void stop_workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_.store(true, std::memory_order_release);
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
  }

  std::mutex run_mutex_, mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  const std::function<void(int64_t, int64_t)>* fn_ = nullptr;
  int64_t begin_ = 0, end_ = 0;
  std::exception_ptr error_;
  std::atomic<int> num_threads_{1};  // read without run_mutex_ by size(); changed only under it
  std::atomic<int> pending_{0};
  std::atomic<uint64_t> generation_{0};
  std::atomic<bool> stopping_{false};
};

ThreadPool& pool() {
  // Leaked on purpose: joining threads from a static destructor at exit can deadlock.
  static ThreadPool* p = new ThreadPool((int)std::max(1u, std::thread::hardware_concurrency()));
  return *p;
}

}  // namespace

bool set_num_threads(int n) { return pool().resize(n); }
int get_num_threads() { return pool().size(); }

void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  const std::function<void(int64_t, int64_t)>& fn) {
  if (end <= begin) return;
  if (end - begin <= grain || in_parallel_region || pool().size() == 1 || !pool().run(begin, end, fn))
    fn(begin, end);
}

}  // namespace jt
