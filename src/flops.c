/*
 * Arithmetic throughput and the peak table (flops.h).
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "flops.h"
#include "json.h"

const char *const flops_type_names[FT_COUNT] = {
	[FT_F64] = "f64", [FT_F32] = "f32", [FT_TF32] = "tf32", [FT_F16] = "f16",
	[FT_BF16] = "bf16", [FT_I8] = "i8",
};

/*
 * Dense operations per clock per SM (a fused multiply-add is two), from
 * the architectures' whitepapers; 0 where the architecture has no such
 * unit.  f64 is DGEMM's rate: FP64 tensor cores on sm_80 and sm_90.  f16
 * and bf16 accumulate in FP32: GeForce parts of sm_86 and sm_89 do that
 * at half this rate.  Checked against the datasheets' totals: V100 (80
 * SMs, 1.53 GHz) 125 f16 TFLOP/s; A100 (108 SMs, 1.41 GHz) 19.5 f64,
 * 156 tf32, 312 f16; H100 SXM (132 SMs) 66.9 f32 and f64 at 1.98 GHz,
 * 989 f16 and 495 tf32 at 1.83 GHz (the datasheet's tensor clock: with
 * the 1.98 GHz the driver reports, this table gives 1070 and 535).
 */
static const struct arch_rate {
	int major, minor;
	unsigned rate[FT_COUNT];
} rates[] = {
	{7, 0, {[FT_F64] = 64, [FT_F32] = 128, [FT_F16] = 1024}},
	{7, 5, {[FT_F64] = 4, [FT_F32] = 128, [FT_F16] = 1024, [FT_I8] = 2048}},
	{8, 0, {[FT_F64] = 128, [FT_F32] = 128, [FT_TF32] = 1024, [FT_F16] = 2048,
		[FT_BF16] = 2048, [FT_I8] = 4096}},
	{8, 6, {[FT_F64] = 4, [FT_F32] = 256, [FT_TF32] = 512, [FT_F16] = 1024,
		[FT_BF16] = 1024, [FT_I8] = 2048}},
	{8, 9, {[FT_F64] = 4, [FT_F32] = 256, [FT_TF32] = 512, [FT_F16] = 1024,
		[FT_BF16] = 1024, [FT_I8] = 2048}},
	{9, 0, {[FT_F64] = 256, [FT_F32] = 256, [FT_TF32] = 2048, [FT_F16] = 4096,
		[FT_BF16] = 4096, [FT_I8] = 8192}},
};

double flops_peak(int cc_major, int cc_minor, int sms, double clock_khz, enum flops_type t,
		  const char **why)
{
	static char buf[96];
	*why = NULL;
	for (size_t i = 0; i < sizeof rates / sizeof *rates; i++) {
		if (rates[i].major != cc_major || rates[i].minor != cc_minor)
			continue;
		if (rates[i].rate[t] == 0) {
			snprintf(buf, sizeof buf, "sm_%d%d has no %s units", cc_major, cc_minor,
				 flops_type_names[t]);
			*why = buf;
			return NAN;
		}
		if (sms <= 0 || !(clock_khz > 0)) {
			*why = "the driver reports no SM count or clock";
			return NAN;
		}
		return (double)rates[i].rate[t] * sms * clock_khz * 1e3 / 1e12;
	}
	snprintf(buf, sizeof buf, "sm_%d%d is not in the peak table", cc_major, cc_minor);
	*why = buf;
	return NAN;
}

struct flops_rate flops_of(double flops, double median_s, double peak_tflops)
{
	struct flops_rate r = {NAN, NAN};
	if (!isnan(flops) && median_s > 0 && isfinite(median_s))
		r.tflop_per_s = flops / median_s / 1e12;
	if (!isnan(r.tflop_per_s) && peak_tflops > 0)
		r.peak_percent = 100 * r.tflop_per_s / peak_tflops;
	return r;
}

void flops_json(FILE *out, const struct flops_decl *f, double median_s, int depth)
{
	if (!f->declared) {
		fputs("null", out);
		return;
	}
	struct flops_rate r = flops_of(f->flops, median_s, f->peak_tflops);
	fputc('{', out);
	json_key(out, depth + 1, true, "flops");
	json_number(out, f->flops);
	json_key(out, depth + 1, false, "type");
	json_string(out, f->type >= 0 && f->type < FT_COUNT ? flops_type_names[f->type] : NULL);
	json_key(out, depth + 1, false, "tflop_per_s");
	json_number(out, r.tflop_per_s);
	json_key(out, depth + 1, false, "peak_tflop_per_s");
	json_number(out, f->peak_tflops > 0 ? f->peak_tflops : NAN);
	json_key(out, depth + 1, false, "peak_percent");
	json_number(out, r.peak_percent);
	fprintf(out, "\n%*s}", 2 * depth, "");
}

void flops_print(FILE *out, const struct flops_decl *f, double median_s)
{
	if (!f->declared)
		return;
	int type = f->type;
	double peak_tflops = f->peak_tflops;
	struct flops_rate r = flops_of(f->flops, median_s, peak_tflops);
	fprintf(out, "  %-12s", "flops");
	if (isnan(r.tflop_per_s)) {
		fputs(" none: no timed launch\n", out);
		return;
	}
	fprintf(out, " %.*f TFLOP/s", r.tflop_per_s >= 99.95 ? 0 : r.tflop_per_s >= 9.995 ? 1 : 2,
		r.tflop_per_s);
	bool typed = type >= 0 && type < FT_COUNT;
	if (!isnan(r.peak_percent))
		fprintf(out, ", %.1f%% of the %.0f TFLOP/s %s peak", r.peak_percent, peak_tflops,
			flops_type_names[type]);
	else if (typed)
		fprintf(out, " (no %s peak: %s)", flops_type_names[type],
			f->why[0] ? f->why : "unknown");
	fputc('\n', out);
}
