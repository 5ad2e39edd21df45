// What cucc does not provide of libcu++ is said at the program's line.
#include <cuda/latch>

int main() { return 0; }
