// bad.cu: cucc-occupancy on a program that does not compile
__global__ void k(float *p) {
  p[threadIdx.x] = 1.0f
}
