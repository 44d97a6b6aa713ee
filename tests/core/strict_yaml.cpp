// The strict YAML reader's nested mappings, mappings keyed by names, lists of names with their lines and
// numbers within a range: what each accepts and the exact "file:line N: key.path: ..." of each error.
#include "mimic/core/strict_yaml.hpp"

#include <gtest/gtest.h>

#include <array>
#include <functional>

#include "mimic/core/error.hpp"

namespace mimic::core {
namespace {

// The message of the InputError `read` throws.
std::string error_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

TEST(StrictYaml, ChildMappingHasTheKeyPathAndChecksItsKeys) {
  YamlDocument doc("pose:\n  waist: [0, 0, 0.6]\n  joints: {a: 1}\n", "f.yaml");
  const StrictMapping top(doc, doc.root(), "", 1, {"pose", "other"});
  const StrictMapping pose = top.child("pose", {"waist", "joints"});
  EXPECT_EQ(pose.key_path("waist"), "pose.waist");
  EXPECT_EQ(pose.mapping_line(), 1);
  EXPECT_EQ(pose.line("joints"), 3);
  EXPECT_EQ(error_of([&] { top.child("other", {"x"}); }), "f.yaml:line 1: missing required key 'other'");
  EXPECT_EQ(error_of([&] { pose.child("waist", {"x"}); }),
            "f.yaml:line 2: pose.waist: expected a mapping (key: value lines), found a list");
  EXPECT_EQ(error_of([&] { pose.child("joints", {"knee"}); }),
            "f.yaml:line 3: unknown key 'pose.joints.a' (expected one of: knee)");
}

TEST(StrictYaml, MappingWithAnyKeysKeepsTheirOrderAndRefusesDuplicates) {
  YamlDocument doc("joints:\n  knee: 0.8\n  hip: -0.4\n  ankle: x\n", "f.yaml");
  const StrictMapping top(doc, doc.root(), "", 1, {"joints"});
  const StrictMapping joints = top.child_with_any_keys("joints");
  EXPECT_EQ(joints.keys(), (std::vector<std::string>{"knee", "hip", "ankle"}));
  double value = 0.0;
  EXPECT_TRUE(joints.read("hip", value));
  EXPECT_EQ(value, -0.4);
  EXPECT_EQ(joints.line("hip"), 3);
  EXPECT_EQ(error_of([&] { joints.read("ankle", value); }),
            "f.yaml:line 4: joints.ankle: expected a number, found 'x'");

  YamlDocument twice("joints:\n  knee: 0.8\n  knee: 0.9\n", "g.yaml");
  const StrictMapping top2(twice, twice.root(), "", 1, {"joints"});
  EXPECT_EQ(error_of([&] { top2.child_with_any_keys("joints"); }),
            "g.yaml:line 3: duplicate key 'joints.knee' (first on line 2)");
  YamlDocument list("joints: [a, b]\n", "h.yaml");
  const StrictMapping top3(list, list.root(), "", 1, {"joints"});
  EXPECT_EQ(error_of([&] { top3.child_with_any_keys("joints"); }),
            "h.yaml:line 1: joints: expected a mapping (key: value lines), found a list");
}

TEST(StrictYaml, ListOfNamesGivesEachItemsLine) {
  YamlDocument doc("flow: [a, b,\n  c]\nblock:\n  - d\n  - e\nempty: []\nscalar: a\nnested: [a, [b]]\n",
                   "f.yaml");
  const StrictMapping top(doc, doc.root(), "", 1, {"flow", "block", "empty", "scalar", "nested", "absent"});
  std::vector<YamlListItem> items;
  EXPECT_FALSE(top.read("absent", items));
  ASSERT_TRUE(top.read("flow", items));
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].text, "a");
  EXPECT_EQ(items[0].line, 1);
  EXPECT_EQ(items[2].text, "c");
  EXPECT_EQ(items[2].line, 2);
  ASSERT_TRUE(top.read("block", items));
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[1].text, "e");
  EXPECT_EQ(items[1].line, 5);
  ASSERT_TRUE(top.read("empty", items));
  EXPECT_TRUE(items.empty());
  EXPECT_EQ(error_of([&] { top.read("scalar", items); }),
            "f.yaml:line 7: scalar: expected a list of names, e.g. [a, b], found 'a'");
  EXPECT_EQ(error_of([&] { top.read("nested", items); }),
            "f.yaml:line 8: nested: expected a list of names, found a list as item 2");
}

TEST(StrictYaml, ErrorsAtAnItemsLineAndAboutTheWholeMapping) {
  YamlDocument doc("names:\n  - a\n  - b\nshape: {capsule: 1, box: 2}\n", "f.yaml");
  const StrictMapping top(doc, doc.root(), "", 1, {"names", "shape"});
  EXPECT_EQ(error_of([&] { top.fail("names", 3, "'b' is not a joint"); }),
            "f.yaml:line 3: names: 'b' is not a joint");
  // Without a line (0), the key's line.
  EXPECT_EQ(error_of([&] { top.fail("names", 0, "empty"); }), "f.yaml:line 1: names: empty");
  const StrictMapping shape = top.child("shape", {"capsule", "box"});
  EXPECT_EQ(error_of([&] { shape.fail_mapping("give one of 'capsule' or 'box'"); }),
            "f.yaml:line 4: shape: give one of 'capsule' or 'box'");
  EXPECT_EQ(error_of([&] { top.fail_mapping("empty"); }), "f.yaml:line 1: the file: empty");
}

TEST(StrictYaml, NumberRangeDescribesAndContains) {
  const NumberRange positive = NumberRange::positive("a length");
  EXPECT_EQ(positive.describe(), "a length > 0");
  EXPECT_TRUE(positive.contains(1e-300));
  EXPECT_FALSE(positive.contains(0.0));
  EXPECT_FALSE(positive.contains(-1.0));
  const NumberRange fraction{0.0, 1.0, true, false};
  EXPECT_EQ(fraction.describe(), "a number in (0, 1]");
  EXPECT_TRUE(fraction.contains(1.0));
  EXPECT_FALSE(fraction.contains(0.0));
  EXPECT_FALSE(fraction.contains(1.5));
  const NumberRange closed{-0.5, 2.0};
  EXPECT_EQ(closed.describe(), "a number in [-0.5, 2]");
  EXPECT_TRUE(closed.contains(-0.5));
  EXPECT_TRUE(closed.contains(2.0));
  EXPECT_EQ((NumberRange{0.0, NumberRange::kInfinity}).describe(), "a number >= 0");
  EXPECT_EQ((NumberRange{-NumberRange::kInfinity, 3.0, false, true}).describe(), "a number < 3");
  EXPECT_EQ(NumberRange{}.describe(), "a number");
}

TEST(StrictYaml, NumbersWithinARange) {
  YamlDocument doc("r: 0.05\nzero: 0\nbad: x\nsize: [0.1, 0.2, 0.3]\nflat: [0.1, 0, 0.3]\nshort: [1, 2]\n",
                   "f.yaml");
  const StrictMapping top(doc, doc.root(), "", 1, {"r", "zero", "bad", "size", "flat", "short", "absent"});
  const NumberRange length = NumberRange::positive("a length");
  double value = -1.0;
  EXPECT_FALSE(top.read("absent", value, length));
  EXPECT_EQ(value, -1.0);
  EXPECT_TRUE(top.read("r", value, length));
  EXPECT_EQ(value, 0.05);
  EXPECT_EQ(error_of([&] { top.read("zero", value, length); }),
            "f.yaml:line 2: zero: expected a length > 0, found '0'");
  EXPECT_EQ(value, 0.05);  // untouched by a refused value
  EXPECT_EQ(error_of([&] { top.read("bad", value, length); }),
            "f.yaml:line 3: bad: expected a number, found 'x'");

  std::array<double, 3> size{};
  EXPECT_TRUE(top.read("size", size, length));
  EXPECT_EQ(size, (std::array<double, 3>{0.1, 0.2, 0.3}));
  std::array<double, 3> flat{7, 7, 7};
  EXPECT_EQ(error_of([&] { top.read("flat", flat, length); }),
            "f.yaml:line 5: flat: expected a list of 3 numbers, each a length > 0, found '0' as item 2");
  EXPECT_EQ(flat, (std::array<double, 3>{7, 7, 7}));  // untouched
  EXPECT_EQ(error_of([&] { top.read("short", size, length); }),
            "f.yaml:line 6: short: expected a list of 3 numbers, found a list of 2");
}

}  // namespace
}  // namespace mimic::core
