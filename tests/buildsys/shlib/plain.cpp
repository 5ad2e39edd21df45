// plain.cpp: a C++ program that knows nothing of CUDA, linked with a
// shared library that cucc built
#include <cstdio>
extern "C" int lib_run(int n);
int main() {
  int wrong = lib_run(5000);
  printf("%d wrong\n%s\n", wrong, wrong ? "FAIL" : "PASS");
  return wrong != 0;
}
