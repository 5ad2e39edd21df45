// rdc_leaf.cu: the kernel rdc_main.cu launches from device code.
__global__ void leaf(int *v, int base) { v[threadIdx.x] = base * 100 + threadIdx.x; }
