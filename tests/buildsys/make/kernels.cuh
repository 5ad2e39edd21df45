// kernels.cuh: the kernels' host-side interface
#pragma once
void scale_on_device(int *h, int n);
int device_arch();
