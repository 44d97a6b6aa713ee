#include "mimic/walking/preview_control.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace mimic::walking {
namespace {

using stability::CartState;
using stability::CartTable;

// Kajita 2003 defaults with the HRP-2 half-sitting CoM height.
PreviewControlOptions hrp2_options() {
  PreviewControlOptions o;
  o.cart = CartTable{0.8078, 9.81, 0.005};
  return o;
}

struct Tracking {
  std::vector<CartState> com;
  double max_zmp_error = 0.0;
};

Tracking track(const PreviewController& controller, const std::vector<double>& reference) {
  Tracking t;
  t.com.resize(reference.size());
  controller.track(reference, CartState{reference.front(), 0.0, 0.0}, t.com);
  for (std::size_t k = 0; k < reference.size(); ++k)
    t.max_zmp_error = std::max(t.max_zmp_error, std::abs(controller.cart().zmp(t.com[k]) - reference[k]));
  return t;
}

TEST(PreviewControl, RiccatiSolutionSatisfiesTheEquationAndGainsMatchKajita2003) {
  const PreviewController controller(hrp2_options());
  // Newton steps bring the relative residual to rounding level (~1e-16 measured); 1e-12 leaves room for
  // other compilers while catching a doubling-only solve (3e-7).
  EXPECT_LT(controller.riccati_residual(), 1e-12);
  EXPECT_EQ(controller.preview_samples(), 320);  // 1.6 s / 5 ms
  const PreviewGains& g = controller.gains();
  // Kajita 2003 Fig. 6 (zc = 0.814): the preview gain is largest for the near future and has decayed to
  // a few thousandths of its peak by the end of the 1.6 s window (it decays like exp(-t / Tc):
  // exp(-1.6 / 0.288) = 3.9e-3; measured 4.2e-3 for the gain, 3.9e-3 for the tail).
  EXPECT_GT(g.integral, 0.0);
  EXPECT_LT(g.preview(0), 0.0);
  EXPECT_LT(std::abs(g.preview(319)), 1e-2 * std::abs(g.preview.minCoeff()));
  // An infinite preview balances the state feedback on a resting cart exactly (Gx1 = -sum Gp); the part
  // beyond 1.6 s, lumped on the last previewed sample, is well under 1 % of it.
  EXPECT_LT(std::abs(g.preview_tail), 1e-2 * std::abs(g.state(0)));
}

TEST(PreviewControl, CartRestingOnAConstantReferenceAwayFromTheOriginStaysThere) {
  const PreviewController controller(hrp2_options());
  const Tracking t = track(controller, std::vector<double>(400, 0.07));
  // Static equilibrium: round-off only (measured 8.9e-16 and 0).
  EXPECT_LT(t.max_zmp_error, 1e-14);
  EXPECT_NEAR(t.com.back().position, 0.07, 1e-14);
}

// A 0.1 m ZMP step 2 s into the sequence (beyond the first preview window: a step seen from the first sample
// kicks the resting cart, as the controller was not running before it): the CoM starts to move before the
// step (preview) and settles on the new ZMP. The cart's ZMP is continuous (the jerk is the input), so it
// needs a few samples to follow a discontinuous reference: 50 ms on either side of the step are excluded (it
// crosses in ~30 ms). Elsewhere the error, measured 1.8 mm (the early start of the CoM), is bounded by 3 mm,
// under a sixth of the stabilizer's 2 cm margin (a deterministic control figure, not round-off). The end
// (3 s after the step, ~10 Tc) must have settled to 0.01 mm and 0.1 mm/s (measured 1.2e-6 m, 4.3e-6 m/s).
TEST(PreviewControl, CentreOfMassTracksAZmpStep) {
  const PreviewController controller(hrp2_options());
  std::vector<double> reference(1000, 0.0);
  for (std::size_t k = 400; k < reference.size(); ++k) reference[k] = 0.1;
  const Tracking t = track(controller, reference);
  double max_error = 0.0;
  for (std::size_t k = 0; k < reference.size(); ++k)
    if (k < 390 || k >= 410)
      max_error = std::max(max_error, std::abs(controller.cart().zmp(t.com[k]) - reference[k]));
  EXPECT_LT(max_error, 3e-3);
  EXPECT_GT(t.com[390].position, 0.02);  // anticipation: halfway up before the step (measured 42 mm)
  EXPECT_LT(t.com[390].position, 0.06);
  EXPECT_NEAR(t.com.back().position, 0.1, 1e-5);
  EXPECT_NEAR(t.com.back().velocity, 0.0, 1e-4);
}

// Walking-like lateral reference: 2 s on both feet (ZMP 0), then 6 steps of 0.8 s with the ZMP on the
// alternate sole (+/-0.095 m) reached by a 0.1 s linear transfer, then back to 0. The reference is
// continuous but has kinks (1.9 m/s transfers), where the cart lags: measured max error 8.2 mm; bound 10 mm,
// half the stabilizer's margin.
TEST(PreviewControl, CentreOfMassTracksAnAlternatingFootstepReference) {
  const PreviewController controller(hrp2_options());
  const int per_step = 160, transfer = 20;  // 0.8 s and 0.1 s at 5 ms
  std::vector<double> reference(400, 0.0);
  double previous = 0.0;
  for (int step = 0; step <= 6; ++step) {
    const double target = step == 6 ? 0.0 : (step % 2 == 0 ? 0.095 : -0.095);
    for (int k = 0; k < per_step; ++k)
      reference.push_back(k < transfer ? previous + (target - previous) * (k + 1) / transfer : target);
    previous = target;
  }
  reference.resize(reference.size() + 300, 0.0);
  const Tracking t = track(controller, reference);
  EXPECT_LT(t.max_zmp_error, 10e-3);
  // The CoM sways less than the ZMP: it stays between the feet (measured amplitude 63 mm).
  double max_com = 0.0;
  for (const CartState& s : t.com) max_com = std::max(max_com, std::abs(s.position));
  EXPECT_LT(max_com, 0.095);
  EXPECT_GT(max_com, 0.01);
  EXPECT_NEAR(t.com.back().position, 0.0, 1e-4);  // settled 1.5 s after the last step: measured 1.5e-5
}

TEST(PreviewControl, StreamingTrackerMatchesBatchTracking) {
  const PreviewController controller(hrp2_options());
  std::vector<double> reference(600, -0.03);
  for (std::size_t k = 250; k < reference.size(); ++k) reference[k] = 0.04;
  std::vector<CartState> batch(reference.size());
  controller.track(reference, CartState{-0.03, 0.0, 0.0}, batch);
  PreviewTracker tracker(controller, CartState{-0.03, 0.0, 0.0});
  for (std::size_t k = 0; k + 1 < reference.size(); ++k) {
    // A window of exactly the preview length, as a generator with a rolling buffer would pass.
    const std::size_t len = std::min<std::size_t>(controller.preview_samples() + 1, reference.size() - k);
    tracker.step(std::span<const double>(reference).subspan(k, len));
    // The same arithmetic in the same order: measured identical; 1e-12 allows another summation order.
    EXPECT_NEAR(tracker.state().position, batch[k + 1].position, 1e-12);
  }
}

}  // namespace
}  // namespace mimic::walking
