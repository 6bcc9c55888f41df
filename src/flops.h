/*
 * Arithmetic throughput (cugraphrun(5), Throughput): what a launch
 * computes, throughput: {flops: N, flops_type: T}, as TFLOP/s and as a
 * share of the device's dense peak for that kind of arithmetic.  The
 * driver reports no arithmetic peak, so it is worked out from a table of
 * the dense operations one SM does per clock, per architecture and kind
 * (NVIDIA's architecture whitepapers), times the device's SMs and its
 * clock as the driver reports it (CU_DEVICE_ATTRIBUTE_CLOCK_RATE); an
 * architecture or a kind the table lacks has no peak, and the report
 * says so.  No CUDA here: the GPU layer hands over the three figures.
 */
#ifndef CGR_FLOPS_H
#define CGR_FLOPS_H

#include <stdbool.h>
#include <stdio.h>

/*
 * The kinds of arithmetic whose peaks differ: f64 (DGEMM: FP64 tensor
 * cores where there are), f32 (FP32 cores), tf32, f16 and bf16 (tensor
 * cores, FP32 accumulation), i8 (integer tensor cores, operations/s).
 */
enum flops_type { FT_F64, FT_F32, FT_TF32, FT_F16, FT_BF16, FT_I8, FT_COUNT };
extern const char *const flops_type_names[FT_COUNT];

/*
 * The device's dense peak in TFLOP/s (TOPS for i8): per-SM rate x sms x
 * clock_khz; NaN when the table has no rate, with *why saying which
 * ("no sm_100 in the table", "sm_75 has no tf32").
 */
double flops_peak(int cc_major, int cc_minor, int sms, double clock_khz, enum flops_type t,
		  const char **why);

/* TFLOP/s of flops per launch in median_s (NaN when untimed), and its share of peak (NaN: none). */
struct flops_rate {
	double tflop_per_s;
	double peak_percent;
};
struct flops_rate flops_of(double flops, double median_s, double peak_tflops);

/* What a file or a point declared, and the peak it is held against. */
struct flops_decl {
	bool declared;                  /* false: no flops (the rest means nothing) */
	double flops;                   /* per launch */
	int type;                       /* enum flops_type, or -1 when not given */
	double peak_tflops;             /* NaN: no peak known */
	char why[96];                   /* then why not ("sm_100 is not in the peak table"), or "" */
};

/*
 * The JSON "flops" object of a file or a point: null when it declares no
 * flops, else {flops, type, tflop_per_s, peak_tflop_per_s, peak_percent}
 * (type null when not given).  depth as json_key's.
 */
void flops_json(FILE *out, const struct flops_decl *f, double median_s, int depth);

/* The report's line ("  flops        512 TFLOP/s, 47.9% of the 1070 TFLOP/s tf32 peak"), when declared. */
void flops_print(FILE *out, const struct flops_decl *f, double median_s);

#endif
