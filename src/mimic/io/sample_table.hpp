// The text layout shared by every OpenHRP sequence file: one sample per line, a time stamp and a fixed
// number of values, separated by spaces or tabs. hrpsys's SequencePlayer reads these with
// `stream >> double` and no line structure at all, so a short line silently shifts every later value
// and a comment or "nan" makes it loop forever. This reader is therefore stricter than hrpsys: it checks
// each line on its own and names the first one hrpsys would misread.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mimic/core/text_file.hpp"

namespace mimic::io {

// One accepted layout of a file: how many values follow the time and how to describe them in errors,
// e.g. {30, "30 joint angles"}.
struct SampleLayout {
  int values = 0;
  std::string_view description;
};

struct SampleTable {
  std::vector<double> times;   // strictly increasing
  std::vector<double> values;  // row-major, times.size() x columns
  int columns = 0;             // the layout the file uses
  std::vector<int> lines;      // 1-based line number of each sample, for errors found later
};

// Parses `text` (named `file` in errors). The first sample line picks one of `layouts`; every later line
// must have the same. Blank lines, CRLF endings, tabs and trailing spaces are accepted; comments, header
// lines, NaN / infinities, a wrong field count and non-increasing times are InputErrors
// "file:line N: ...". An empty file is an InputError too.
SampleTable parse_sample_table(std::string_view text, const std::string& file,
                               std::span<const SampleLayout> layouts);

}  // namespace mimic::io
