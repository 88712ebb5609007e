#define DOCTEST_CONFIG_IMPLEMENT
#include "run_doctest.hpp"

int main(int argc, char** argv) { return test_support::run_doctest(argc, argv, test_support::is_listing(argc, argv)); }
