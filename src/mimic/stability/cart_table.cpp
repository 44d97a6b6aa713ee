#include "mimic/stability/cart_table.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace mimic::stability {
namespace {

void require_same_size(std::span<const double> a, std::span<double> b, const char* what) {
  if (a.size() != b.size())
    throw std::invalid_argument(std::string(what) + ": input and output sizes differ (" +
                                std::to_string(a.size()) + " vs " + std::to_string(b.size()) + ")");
}

// a = zc / (g dt^2): the weight of the second difference in the discrete ZMP.
double second_difference_weight(const CartTable& cart) {
  cart.validate();
  return cart.com_height / (cart.gravity * cart.period * cart.period);
}

}  // namespace

void CartTable::validate() const {
  const auto positive = [](double x) { return std::isfinite(x) && x > 0.0; };
  if (!positive(com_height) || !positive(gravity) || !positive(period))
    throw std::invalid_argument("CartTable: com_height, gravity and period must be positive (got " +
                                std::to_string(com_height) + ", " + std::to_string(gravity) + ", " +
                                std::to_string(period) + ")");
}

Eigen::Matrix3d CartTable::A() const {
  const double dt = period;
  Eigen::Matrix3d a;
  a << 1.0, dt, dt * dt / 2.0,  //
      0.0, 1.0, dt,             //
      0.0, 0.0, 1.0;
  return a;
}

Eigen::Vector3d CartTable::B() const {
  const double dt = period;
  return Eigen::Vector3d(dt * dt * dt / 6.0, dt * dt / 2.0, dt);
}

Eigen::RowVector3d CartTable::C() const { return Eigen::RowVector3d(1.0, 0.0, -com_height / gravity); }

void solve_com_for_zmp(const CartTable& cart, std::span<const double> zmp, std::span<double> com,
                       CartBoundary boundary) {
  require_same_size(zmp, com, "solve_com_for_zmp");
  const std::size_t n = zmp.size();
  if (n == 0) return;
  const double a = second_difference_weight(cart);
  // Row k: -a x_{k-1} + (1 + 2a) x_k - a x_{k+1} = p_k. A held-still ghost sample equals its neighbour, so
  // its term folds into the diagonal; a zero ghost sample just drops out.
  const double end_diagonal = boundary == CartBoundary::kHeldStill ? 1.0 + a : 1.0 + 2.0 * a;
  const auto diagonal = [&](std::size_t k) {
    double d = 1.0 + 2.0 * a;
    if (k == 0) d += end_diagonal - (1.0 + 2.0 * a);
    if (k == n - 1) d += end_diagonal - (1.0 + 2.0 * a);
    return d;
  };
  // Thomas algorithm: forward elimination of the sub-diagonal, then back substitution. The matrix is
  // symmetric and diagonally dominant (|diagonal| >= 1 + sum |off-diagonal|), hence positive definite and
  // safe without pivoting.
  std::vector<double> upper(n);  // modified super-diagonal c'_k
  double denominator = diagonal(0);
  upper[0] = -a / denominator;
  com[0] = zmp[0] / denominator;
  for (std::size_t k = 1; k < n; ++k) {
    denominator = diagonal(k) + a * upper[k - 1];
    upper[k] = -a / denominator;
    com[k] = (zmp[k] + a * com[k - 1]) / denominator;
  }
  for (std::size_t k = n - 1; k-- > 0;) com[k] -= upper[k] * com[k + 1];
}

void discrete_zmp(const CartTable& cart, std::span<const double> com, std::span<double> zmp,
                  CartBoundary boundary) {
  if (com.size() != zmp.size()) throw std::invalid_argument("discrete_zmp: input and output sizes differ");
  const std::size_t n = com.size();
  const double a = second_difference_weight(cart);
  const auto sample = [&](std::ptrdiff_t k) {
    if (k >= 0 && k < static_cast<std::ptrdiff_t>(n)) return com[static_cast<std::size_t>(k)];
    if (boundary == CartBoundary::kZeroOutside) return 0.0;
    return k < 0 ? com[0] : com[n - 1];
  };
  for (std::size_t k = 0; k < n; ++k) {
    const auto i = static_cast<std::ptrdiff_t>(k);
    zmp[k] = com[k] - a * (sample(i + 1) - 2.0 * com[k] + sample(i - 1));
  }
}

}  // namespace mimic::stability
