#include "mimic/walking/preview_control.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "mimic/core/error.hpp"

namespace mimic::walking {

using stability::CartState;

namespace {

using Mat4 = Eigen::Matrix4d;
using Vec4 = Eigen::Vector4d;

// The incremental cart-table augmented with the tracking error (Katayama 1985; Kajita 2003 section III-B):
// state [e(k); dX(k)], input du(k),
//   A~ = [1  C A; 0  A],  B~ = [C B; B],  I~ = [1; 0],  F~ = [C A; A].
struct AugmentedSystem {
  Mat4 a;
  Vec4 b;
  Vec4 i;
  Eigen::Matrix<double, 4, 3> f;
  Mat4 q;
  double r;
};

AugmentedSystem augment(const Eigen::Matrix3d& a, const Eigen::Vector3d& b, const Eigen::RowVector3d& c,
                        double error_weight, double jerk_weight) {
  AugmentedSystem s;
  s.a.setZero();
  s.a(0, 0) = 1.0;
  s.a.block<1, 3>(0, 1) = c * a;
  s.a.block<3, 3>(1, 1) = a;
  s.b << (c * b).value(), b;
  s.i << 1.0, 0.0, 0.0, 0.0;
  s.f << c * a, a;
  s.q.setZero();
  s.q(0, 0) = error_weight;  // Qx = 0: only the tracking error is weighted (Kajita 2003)
  s.r = jerk_weight;
  return s;
}

// Stabilizing solution of P = A'PA - A'PB (R + B'PB)^-1 B'PA + Q by the structure-preserving doubling
// algorithm (Chu, Fan, Lin 2005): quadratic convergence where the plain Riccati recursion is slow.
Mat4 solve_dare_by_doubling(const AugmentedSystem& s) {
  Mat4 a = s.a;
  Mat4 g = s.b * s.b.transpose() / s.r;
  Mat4 h = s.q;
  constexpr int kMaxIterations = 200;
  for (int it = 0; it < kMaxIterations; ++it) {
    const Mat4 w_inv = (Mat4::Identity() + g * h).inverse();
    const Mat4 a_next = a * w_inv * a;
    const Mat4 g_next = g + a * w_inv * g * a.transpose();
    const Mat4 h_next = h + a.transpose() * h * w_inv * a;
    const double change = (h_next - h).norm();
    a = a_next;
    g = 0.5 * (g_next + g_next.transpose());
    h = 0.5 * (h_next + h_next.transpose());
    if (!h.allFinite()) break;
    if (change <= 1e-13 * h.norm()) return h;
  }
  throw InfeasibleError("preview control: the Riccati equation of the cart-table did not converge");
}

// One Newton (Kleinman-Hewer) step: with the gain K of P, the P of the closed loop Ac = A - B K solves the
// Stein equation P = Ac' P Ac + Q + K' R K, here by its 16 x 16 Kronecker form
// (I - Ac' (x) Ac') vec(P) = vec(Q + K' R K). Converges quadratically from the doubling result.
Mat4 newton_step(const AugmentedSystem& s, const Mat4& p) {
  const Eigen::RowVector4d k = (s.b.transpose() * p * s.a) / (s.r + s.b.dot(p * s.b));
  const Mat4 act = (s.a - s.b * k).transpose();
  Eigen::Matrix<double, 16, 16> m;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) m.block<4, 4>(4 * i, 4 * j) = -act(i, j) * act;
  m += Eigen::Matrix<double, 16, 16>::Identity();
  const Mat4 rhs = s.q + s.r * k.transpose() * k;
  const Eigen::Matrix<double, 16, 1> vec_p =
      m.partialPivLu().solve(Eigen::Map<const Eigen::Matrix<double, 16, 1>>(rhs.data()));
  const Mat4 next = Eigen::Map<const Mat4>(vec_p.data());
  return 0.5 * (next + next.transpose());
}

Mat4 solve_dare(const AugmentedSystem& s) {
  Mat4 p = solve_dare_by_doubling(s);
  for (int it = 0; it < 3; ++it) p = newton_step(s, p);
  if (!p.allFinite())
    throw InfeasibleError("preview control: the Riccati equation of the cart-table did not converge");
  return p;
}

}  // namespace

PreviewController::PreviewController(const PreviewControlOptions& options) : options_(options) {
  options_.cart.validate();
  const auto positive = [](double x) { return std::isfinite(x) && x > 0.0; };
  if (!positive(options_.preview_time) || !positive(options_.error_weight) || !positive(options_.jerk_weight))
    throw std::invalid_argument(
        "PreviewController: preview_time, error_weight and jerk_weight must be positive");
  a_ = options_.cart.A();
  b_ = options_.cart.B();
  c_ = options_.cart.C();

  const AugmentedSystem s = augment(a_, b_, c_, options_.error_weight, options_.jerk_weight);
  const Mat4 p = solve_dare(s);
  const double scale = 1.0 / (s.r + s.b.dot(p * s.b));  // (R + B~' P B~)^-1
  gains_.riccati = p;
  gains_.integral = scale * s.b.dot(p * s.i);
  gains_.state = scale * (s.b.transpose() * p * s.f);

  // Preview gains (Katayama 1985): Ac = A~ - B~ (R + B~'PB~)^-1 B~'P A~, X(1) = -Ac' P I~,
  // Gp(1) = -Gi, Gp(j) = (R + B~'PB~)^-1 B~' X(j-1), X(j) = Ac' X(j-1).
  const int samples = static_cast<int>(std::lround(options_.preview_time / options_.cart.period));
  if (samples < 1) throw std::invalid_argument("PreviewController: preview shorter than one period");
  const Mat4 closed_loop = s.a - scale * s.b * (s.b.transpose() * p * s.a);
  gains_.preview.resize(samples);
  gains_.preview(0) = -gains_.integral;
  Vec4 x = -closed_loop.transpose() * p * s.i;
  for (int j = 1; j < samples; ++j) {
    gains_.preview(j) = scale * s.b.dot(x);
    x = closed_loop.transpose() * x;
  }
  gains_.preview_tail = -gains_.state(0) - gains_.preview.sum();
}

double PreviewController::riccati_residual() const {
  const AugmentedSystem s = augment(a_, b_, c_, options_.error_weight, options_.jerk_weight);
  const Mat4& p = gains_.riccati;
  const Eigen::RowVector4d bpa = s.b.transpose() * p * s.a;
  const Mat4 rhs = s.a.transpose() * p * s.a - bpa.transpose() * bpa / (s.r + s.b.dot(p * s.b)) + s.q;
  return (rhs - p).norm() / p.norm();
}

double PreviewController::preview_term(std::span<const double> future) const {
  const std::size_t n = static_cast<std::size_t>(gains_.preview.size());
  const std::size_t given = std::min(n, future.size());
  double sum = 0.0;
  for (std::size_t j = 0; j < given; ++j) sum += gains_.preview(static_cast<Eigen::Index>(j)) * future[j];
  // The gains of the window past the end of the given future multiply its held last value.
  if (given < n) sum += gains_.preview.tail(static_cast<Eigen::Index>(n - given)).sum() * future[given - 1];
  return sum;
}

void PreviewController::track(std::span<const double> zmp_reference, const CartState& initial,
                              std::span<CartState> com) const {
  if (zmp_reference.size() != com.size())
    throw std::invalid_argument("PreviewController::track: reference and output sizes differ");
  if (zmp_reference.empty()) return;
  PreviewTracker tracker(*this, initial);
  for (std::size_t k = 0; k < zmp_reference.size(); ++k) {
    com[k] = tracker.state();
    tracker.step(zmp_reference.subspan(k));
  }
}

PreviewTracker::PreviewTracker(const PreviewController& controller, const CartState& initial)
    : controller_(&controller), state_(initial) {}

const CartState& PreviewTracker::step(std::span<const double> window) {
  if (window.empty()) throw std::invalid_argument("PreviewTracker::step: empty reference window");
  const PreviewController& c = *controller_;
  const Eigen::Vector3d x(state_.position, state_.velocity, state_.acceleration);
  error_sum_ += c.cart().zmp(state_) - window[0];
  // An empty future (window of one value) holds the current reference.
  const std::span<const double> future = window.size() > 1 ? window.subspan(1) : window;
  const double u = -c.gains_.integral * error_sum_ - c.gains_.state.dot(x) - c.preview_term(future) -
                   c.gains_.preview_tail * window[0];
  const Eigen::Vector3d next = c.a_ * x + c.b_ * u;
  state_ = {next(0), next(1), next(2)};
  return state_;
}

}  // namespace mimic::walking
