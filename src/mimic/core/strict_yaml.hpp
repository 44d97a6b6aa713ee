// Strict reading of YAML configuration: every mapping declares its keys, so a misspelt key is an error
// instead of a silently ignored setting, and every error names the file, the line and the key path:
//   "config/boxing.yaml:line 12: unknown key 'solver.max_iter' (did you mean 'max_iterations'? ...)".
#pragma once

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <initializer_list>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mimic::core {

// A parsed YAML document and where its keys were, for messages raised after parsing too.
class YamlDocument {
 public:
  // Parses `text`; malformed YAML is an InputError "file:line N: invalid YAML: ...".
  YamlDocument(std::string_view text, std::string file);

  const YAML::Node& root() const { return root_; }
  const std::string& file() const { return file_; }

  // 1-based line of a node, or 0 when yaml-cpp has no position for it.
  static int line_of(const YAML::Node& node);

  // Lines of every key read so far, by key path ("solver.alm.penalty_max", "contacts[1].end").
  void record(const std::string& key_path, int line) { lines_[key_path] = line; }
  const std::map<std::string, int>& key_lines() const { return lines_; }

  // "file:line N: what" (or "file: what" when line is 0).
  [[noreturn]] void fail(int line, const std::string& what) const;

 private:
  std::string file_;
  YAML::Node root_;
  std::map<std::string, int> lines_;
};

// The values a number may take: lower < x or lower <= x, and x < upper or x <= upper. `noun` names the
// quantity in messages: "expected a length > 0, found '-1'".
struct NumberRange {
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  bool lower_open = false, upper_open = false;
  std::string noun = "a number";

  static NumberRange positive(std::string noun = "a number") { return {0.0, kInfinity, true, false, noun}; }
  bool contains(double x) const;
  // "a length > 0", "a number in (0, 1]", "a number >= 0".
  std::string describe() const;

  static constexpr double kInfinity = std::numeric_limits<double>::infinity();
};

// A scalar item of a list (a name of [a, b]) and its line, for messages about one item.
struct YamlListItem {
  std::string text;
  int line = 0;
};

// One mapping of the document whose keys must all be in `allowed` (checked on construction, together
// with duplicates). Typed reads leave the target untouched when the key is absent and throw
// InputError "file:line N: key.path: expected ..., found ..." when the value has the wrong type.
class StrictMapping {
 public:
  StrictMapping(YamlDocument& document, const YAML::Node& node, std::string path, int line,
                std::initializer_list<std::string_view> allowed);
  // The same with keys known at run time (e.g. the names of an enumeration).
  StrictMapping(YamlDocument& document, const YAML::Node& node, std::string path, int line,
                std::span<const std::string_view> allowed);

  // A mapping whose keys are names chosen by the file (joint name -> value): any scalar key, each once.
  static StrictMapping with_any_keys(YamlDocument& document, const YAML::Node& node, std::string path,
                                     int line);

  // The value of `key` as a mapping with the keys `allowed`, its path key_path(key); a missing key is
  // "missing required key".
  StrictMapping child(std::string_view key, std::initializer_list<std::string_view> allowed) const;
  StrictMapping child(std::string_view key, std::span<const std::string_view> allowed) const;
  StrictMapping child_with_any_keys(std::string_view key) const;

  bool has(std::string_view key) const;
  std::vector<std::string> keys() const;               // in the file's order
  const YAML::Node& node(std::string_view key) const;  // requires has(key)
  int line(std::string_view key) const;                // line of the key, or the mapping's line if absent
  std::string key_path(std::string_view key) const;    // "solver.alm" + "penalty_max"
  int mapping_line() const { return line_; }

  bool read(std::string_view key, double& out) const;
  bool read(std::string_view key, int& out) const;
  bool read(std::string_view key, bool& out) const;
  bool read(std::string_view key, std::string& out) const;
  // A list of exactly out.size() numbers, e.g. [x, y, z].
  bool read(std::string_view key, std::span<double> out) const;
  // The same, each value within `range` ("expected a length > 0, found '0'").
  bool read(std::string_view key, double& out, const NumberRange& range) const;
  bool read(std::string_view key, std::span<double> out, const NumberRange& range) const;
  // A list of strings (flow [a, b] or block "- a" lines), each with its line.
  bool read(std::string_view key, std::vector<YamlListItem>& out) const;

  [[noreturn]] void fail(std::string_view key, const std::string& what) const;
  // An error about a part of key's value (an item of its list, a key of its mapping) at that part's line.
  [[noreturn]] void fail(std::string_view key, int line, const std::string& what) const;
  // An error about the mapping as a whole (keys that exclude each other), at its line: "path: what".
  [[noreturn]] void fail_mapping(const std::string& what) const;
  // Throws "missing required key 'path.key'" unless the key is present.
  void require(std::string_view key) const;

 private:
  struct Entry {
    std::string key;
    YAML::Node value;
    int line;
  };
  StrictMapping(YamlDocument& document, const YAML::Node& node, std::string path, int line,
                std::span<const std::string_view> allowed, bool any_key);
  const Entry* find(std::string_view key) const;
  const YAML::Node& scalar(std::string_view key, std::string_view expected) const;

  YamlDocument& document_;
  std::string path_;
  int line_;
  std::vector<Entry> entries_;
};

// "a mapping", "a list", "nothing" or the quoted scalar, for "expected X, found Y" messages.
std::string describe_yaml_value(const YAML::Node& node);

// The allowed name closest to `name` (prefix, or at most 2 edits), or "" if none is close.
std::string closest_name(std::string_view name, std::initializer_list<std::string_view> allowed);
std::string closest_name(std::string_view name, std::span<const std::string_view> allowed);

}  // namespace mimic::core
