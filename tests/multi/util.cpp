// util.cpp: C++ helper linked into the multi-file test.
#include <vector>

int helper_cpp(int v) {
  std::vector<int> xs(3, v);
  int s = 0;
  for (int x : xs) s += x;
  return s;
}
