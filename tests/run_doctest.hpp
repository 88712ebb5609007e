#pragma once
// Runs doctest and fails when the command line selected no test case at all: ctest runs each case by
// name, and a name that matches nothing (a renamed case, a ';' that CMake split) must not pass silently.

#include <doctest/doctest.h>

#include <atomic>
#include <iostream>

namespace test_support {

inline std::atomic<int> test_cases_started{0};

struct CountingListener : doctest::IReporter {
    explicit CountingListener(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_start(const doctest::TestCaseData&) override { ++test_cases_started; }
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override {}
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("counting", 1, CountingListener);

inline int run_doctest(int argc, char** argv, bool listing) {
    doctest::Context context(argc, argv);
    const int result = context.run();
    if (result == 0 && !listing && test_cases_started == 0) {
        std::cerr << "no test case matched the command line\n";
        return 1;
    }
    return result;
}

inline bool is_listing(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--list", 0) == 0 || arg.rfind("-ltc", 0) == 0 || arg.rfind("-lts", 0) == 0 || arg == "--help" ||
            arg == "-h" || arg == "-?" || arg == "--version" || arg == "-v") {
            return true;
        }
    }
    return false;
}

}  // namespace test_support
