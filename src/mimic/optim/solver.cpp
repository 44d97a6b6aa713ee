#include "mimic/optim/solver.hpp"

#include "mimic/core/thread_pool.hpp"

namespace mimic::optim {

namespace {

// Lends the pool to the problem for one solve, also when the solver throws.
class LentPool {
 public:
  LentPool(Problem& problem, core::ThreadPool& pool) : problem_(problem) { problem_.set_thread_pool(&pool); }
  ~LentPool() { problem_.set_thread_pool(nullptr); }
  LentPool(const LentPool&) = delete;
  LentPool& operator=(const LentPool&) = delete;

 private:
  Problem& problem_;
};

}  // namespace

SolveResult solve(Problem& problem, const Eigen::VectorXd& x0, const SolverOptions& options,
                  const ProgressCallback& progress) {
  core::ThreadPool pool(core::thread_count(options.threads));
  const LentPool lent(problem, pool);
  if (options.backend == Backend::kIpopt) return solve_with_ipopt(problem, x0, options.ipopt, progress);
  return solve_augmented_lagrangian(problem, x0, options.alm, progress, &pool);
}

}  // namespace mimic::optim
