/* rt.h: libcucc_rt internals shared by its files. */
#ifndef CUCC_RT_INTERNAL_H
#define CUCC_RT_INTERNAL_H
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_runtime_api.h"
#include "cucc_rt.h"

/* err.c: the per-host-thread last error, as CUDA keeps it */
cudaError_t rt_err(cudaError_t e);   /* records e (if not success), returns it */
void rt_set_sticky(cudaError_t e);   /* a failed launch: next sync reports it */
cudaError_t rt_take_sticky(void);

/* mem.c */
bool rt_is_alloc(const void *p);

/* launch.c */
void rt_launch_init(void);

/* pool.c: run n blocks with fn(i, arg) on the worker pool, wait for all */
void rt_pool_run(unsigned long long n, void (*fn)(unsigned long long i, int worker, void *arg), void *arg);
int rt_pool_workers(void);

/* device.c */
extern struct cudaDeviceProp rt_prop;
void rt_device_init(void);
#endif
