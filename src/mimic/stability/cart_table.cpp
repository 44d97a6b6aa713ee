#include "mimic/stability/cart_table.hpp"

#include <algorithm>
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
  const bool neighbour = boundary == CartBoundary::kNeighbourAcceleration;
  if (neighbour && n < 3) {  // no acceleration without three samples
    std::copy(zmp.begin(), zmp.end(), com.begin());
    return;
  }
  // Row k: sub_k x_{k-1} + diag_k x_k + sup_k x_{k+1} = rhs_k. Inner rows: -a, 1 + 2a, -a, p_k.
  // Held still: the ghost sample equals its neighbour, so its -a folds into the diagonal.
  // Neighbour acceleration: row 0 minus row 1 of p_k = x_k - a (x_{j+1} - 2 x_j + x_{j-1}), j = 1 for both,
  // leaves x_0 - x_1 = p_0 - p_1 (likewise at the end): tridiagonal again.
  const auto sub = [&](std::size_t k) { return k == n - 1 && neighbour ? -1.0 : -a; };
  const auto sup = [&](std::size_t k) { return k == 0 && neighbour ? -1.0 : -a; };
  const auto diag = [&](std::size_t k) {
    if (k == 0 || k == n - 1) {
      if (neighbour) return 1.0;
      return n == 1 ? 1.0 : 1.0 + a;
    }
    return 1.0 + 2.0 * a;
  };
  const auto rhs = [&](std::size_t k) {
    if (neighbour && k == 0) return zmp[0] - zmp[1];
    if (neighbour && k == n - 1) return zmp[n - 1] - zmp[n - 2];
    return zmp[k];
  };
  // Thomas algorithm: forward elimination of the sub-diagonal, then back substitution.
  std::vector<double> upper(n);  // modified super-diagonal c'_k
  double denominator = diag(0);
  upper[0] = sup(0) / denominator;
  com[0] = rhs(0) / denominator;
  for (std::size_t k = 1; k < n; ++k) {
    denominator = diag(k) - sub(k) * upper[k - 1];
    upper[k] = sup(k) / denominator;
    com[k] = (rhs(k) - sub(k) * com[k - 1]) / denominator;
  }
  for (std::size_t k = n - 1; k-- > 0;) com[k] -= upper[k] * com[k + 1];
}

void discrete_zmp(const CartTable& cart, std::span<const double> com, std::span<double> zmp,
                  CartBoundary boundary) {
  if (com.size() != zmp.size()) throw std::invalid_argument("discrete_zmp: input and output sizes differ");
  const std::size_t n = com.size();
  const double a = second_difference_weight(cart);
  for (std::size_t k = 0; k < n; ++k) {
    double second_difference = 0.0;
    if (boundary == CartBoundary::kNeighbourAcceleration) {
      if (n >= 3) {
        const std::size_t j = std::clamp<std::size_t>(k, 1, n - 2);
        second_difference = com[j + 1] - 2.0 * com[j] + com[j - 1];
      }
    } else {
      const double before = k > 0 ? com[k - 1] : com[0];
      const double after = k + 1 < n ? com[k + 1] : com[n - 1];
      second_difference = after - 2.0 * com[k] + before;
    }
    zmp[k] = com[k] - a * second_difference;
  }
}

}  // namespace mimic::stability
