#include "parallel.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace jt {
namespace {

thread_local bool in_parallel_region = false;

class ThreadPool {
 public:
  explicit ThreadPool(int n) { resize(n); }

  int size() const { return num_threads_; }

  void resize(int n) {
    std::lock_guard<std::mutex> run(run_mutex_);
    stop_workers();
    num_threads_ = std::max(1, n);
    stopping_ = false;
    // New workers wait for the next job, not for one that ran before they existed: no job can be
    // posted while run_mutex_ is held here, so the current generation is theirs to skip.
    const uint64_t start = generation_;
    for (int i = 1; i < num_threads_; ++i) workers_.emplace_back([this, i, start] { work(i, start); });
  }

  // Returns false (and runs nothing) when another caller is using the pool.
  bool run(int64_t begin, int64_t end, const std::function<void(int64_t, int64_t)>& fn) {
    std::unique_lock<std::mutex> run(run_mutex_, std::try_to_lock);
    if (!run.owns_lock()) return false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      fn_ = &fn;
      begin_ = begin;
      end_ = end;
      pending_ = num_threads_ - 1;
      ++generation_;
    }
    wake_.notify_all();
    chunk(0);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
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
    int64_t n = end_ - begin_, per = (n + num_threads_ - 1) / num_threads_;
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
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
      }
      chunk(i);
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }

  void stop_workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
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
  int pending_ = 0, num_threads_ = 1;
  uint64_t generation_ = 0;
  bool stopping_ = false;
};

ThreadPool& pool() {
  // Leaked on purpose: joining threads from a static destructor at exit can deadlock.
  static ThreadPool* p = new ThreadPool((int)std::max(1u, std::thread::hardware_concurrency()));
  return *p;
}

}  // namespace

void set_num_threads(int n) { pool().resize(n); }
int get_num_threads() { return pool().size(); }

void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  const std::function<void(int64_t, int64_t)>& fn) {
  if (end <= begin) return;
  if (end - begin <= grain || in_parallel_region || pool().size() == 1 || !pool().run(begin, end, fn))
    fn(begin, end);
}

}  // namespace jt
