// Numbers as text, the way hrpsys and JSON readers need them: locale-independent, shortest round-trip
// output, and a strict token parser that says why a token is not a usable number.
#pragma once

#include <string>
#include <string_view>

namespace mimic::core {

// Appends the shortest decimal text that reads back as exactly `value` ("0.005", "0.6487", "1e-10").
// Negative zero is written "0". `value` must be finite: non-finite values have no spelling that
// hrpsys (or JSON) can read, so callers check first.
void append_number(std::string& out, double value);
std::string format_number(double value);

// Appends a time stamp rounded to the nanosecond, so that k * 0.005 computed in floating point prints
// "0.015" and not "0.015000000000000001". A nanosecond is far below any controller period.
void append_time(std::string& out, double seconds);

enum class NumberStatus {
  kOk,
  kNotANumber,  // not numeric text at all ("abc", "1,5", "0x10")
  kNonFinite,   // "nan", "inf", "infinity" in any case and sign
  kOverflow,    // beyond the range of a double ("1e400")
};

struct ParsedNumber {
  double value = 0.0;
  NumberStatus status = NumberStatus::kNotANumber;
};

// Parses a whole token as a decimal number, as C++ `stream >> double` would accept it (a leading '+',
// ".5", "1.", exponents), but rejects what hrpsys's stream reader would choke on (NaN, infinities,
// overflow) and anything left over after the number. Underflow reads as the nearest double (0 or a
// subnormal), as streams do.
ParsedNumber parse_number(std::string_view token);

}  // namespace mimic::core
