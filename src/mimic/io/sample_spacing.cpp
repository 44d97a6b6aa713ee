#include "mimic/io/sample_spacing.hpp"

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"

namespace mimic::io {

void check_sample_spacing(const std::vector<double>& times, double knot_spacing, const std::string& file) {
  // At most one knot interval between samples puts a sample in (or on the ends of) every interval: with
  // the quartic basis that determines every free control point. The 1e-9 s slack absorbs time stamps
  // printed to the nanosecond (a 0.1 s file against 0.1 s knots).
  constexpr double kSlack = 1e-9;
  for (std::size_t k = 1; k < times.size(); ++k) {
    const double gap = times[k] - times[k - 1];
    if (gap > knot_spacing + kSlack) {
      throw InputError(input_error_message(
          file, "",
          "samples " + core::format_number(gap) + " s apart (t = " + core::format_number(times[k - 1]) +
              " .. " + core::format_number(times[k]) +
              " s) are farther apart than trajectory.knot_spacing (" + core::format_number(knot_spacing) +
              " s): every knot interval needs a sample; resample the motion or raise the knot spacing"));
    }
  }
}

}  // namespace mimic::io
