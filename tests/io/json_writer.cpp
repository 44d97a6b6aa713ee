// The hand-written JSON writer used for reports.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "io/io_test_util.hpp"
#include "mimic/core/error.hpp"
#include "mimic/io/json.hpp"

namespace mimic::io {
namespace {

TEST(Json, Scalars) {
  EXPECT_EQ(Json().dump(), "null");
  EXPECT_EQ(Json(nullptr).dump(), "null");
  EXPECT_EQ(Json(true).dump(), "true");
  EXPECT_EQ(Json(false).dump(), "false");
  EXPECT_EQ(Json(42).dump(), "42");
  EXPECT_EQ(Json(-7L).dump(), "-7");
  EXPECT_EQ(Json(std::size_t{3}).dump(), "3");
  EXPECT_EQ(Json(std::numeric_limits<std::uint64_t>::max()).dump(),
            "18446744073709551616");  // 2^64 as a double
  EXPECT_EQ(Json(0.1).dump(), "0.1");
  EXPECT_EQ(Json(1e-10).dump(), "1e-10");
  EXPECT_EQ(Json(2.5f).dump(), "2.5");
  EXPECT_EQ(Json(-0.0).dump(), "0");
  EXPECT_EQ(Json("text").dump(), "\"text\"");
  EXPECT_EQ(Json(std::string("s")).dump(), "\"s\"");
  EXPECT_EQ(Json(std::string_view("v")).dump(), "\"v\"");
}

TEST(Json, NonFiniteNumbersAreNull) {
  EXPECT_EQ(Json(std::nan("")).dump(), "null");
  EXPECT_EQ(Json(std::numeric_limits<double>::infinity()).dump(), "null");
  EXPECT_EQ(Json(-std::numeric_limits<double>::infinity()).dump(), "null");
  EXPECT_EQ(Json::array_of(std::vector<double>{1.0, std::nan(""), 3.0}).dump(), "[1, null, 3]");
}

TEST(Json, StringsAreEscaped) {
  EXPECT_EQ(json_quote("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(json_quote("line\nnext\ttab\r\b\f"), R"("line\nnext\ttab\r\b\f")");
  EXPECT_EQ(json_quote(std::string("nul\0x\x1f", 6)), R"("nul\u0000x\u001f")");
  EXPECT_EQ(json_quote("/path/with/slashes"), "\"/path/with/slashes\"");
  EXPECT_EQ(json_quote("d\xc3\xa9j\xc3\xa0 \xe2\x82\xac \xf0\x9f\xa4\x96"),
            "\"d\xc3\xa9j\xc3\xa0 \xe2\x82\xac \xf0\x9f\xa4\x96\"");
  // Latin-1 bytes, a truncated sequence, an overlong '/' and a surrogate are not UTF-8.
  EXPECT_EQ(json_quote("caf\xe9"), R"("caf\ufffd")");
  EXPECT_EQ(json_quote("x\xe2\x82"), R"("x\ufffd\ufffd")");
  EXPECT_EQ(json_quote("\xc0\xaf"), R"("\ufffd\ufffd")");
  EXPECT_EQ(json_quote("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");
}

TEST(Json, ObjectsKeepInsertionOrderAndNest) {
  Json report;
  report["job"] = "boxing";
  report["duration"]["before"] = 12.5;
  report["duration"]["after"] = 14.0;
  report["status"] = "converged";
  report["job"] = "boxing2";  // replaces, keeps its place
  report["peaks"] = Json::array_of(std::vector<double>{0.5, 0.25});
  Json& worst = report["worst"].push_back(Json::object());
  worst["joint"] = "RARM_JOINT3";
  worst["ratio"] = 0.97;
  report["worst"].push_back(nullptr);
  report["empty_object"] = Json::object();
  report["empty_array"] = Json::array();
  EXPECT_EQ(report.size(), 7u);
  EXPECT_EQ(report.dump(), R"({
  "job": "boxing2",
  "duration": {
    "before": 12.5,
    "after": 14
  },
  "status": "converged",
  "peaks": [0.5, 0.25],
  "worst": [
    {
      "joint": "RARM_JOINT3",
      "ratio": 0.97
    },
    null
  ],
  "empty_object": {},
  "empty_array": []
})");
  EXPECT_EQ(
      report.dump(0),
      R"({"job":"boxing2","duration":{"before":12.5,"after":14},"status":"converged","peaks":[0.5,0.25],)"
      R"("worst":[{"joint":"RARM_JOINT3","ratio":0.97},null],"empty_object":{},"empty_array":[]})");
}

TEST(Json, EigenVectorsAndMisuse) {
  const Eigen::Vector3d v(1.0, -2.0, 0.125);
  EXPECT_EQ(Json::array_of(v).dump(), "[1, -2, 0.125]");
  Json number(1.0);
  EXPECT_THROW(number["key"], std::logic_error);
  EXPECT_THROW(number.push_back(1), std::logic_error);
  Json object = Json::object();
  EXPECT_THROW(object.push_back(1), std::logic_error);
}

TEST(Json, FileIsWrittenAtomically) {
  const auto dir = test::fresh_dir("json");
  Json report;
  report["ok"] = true;
  write_json_file(dir / "r.json", report);
  EXPECT_EQ(test::slurp(dir / "r.json"), "{\n  \"ok\": true\n}\n");
  EXPECT_THROW(write_json_file(dir / "r.json" / "r.json", report), OutputError);
  EXPECT_EQ(test::listing(dir), std::vector<std::string>{"r.json"});
}

}  // namespace
}  // namespace mimic::io
