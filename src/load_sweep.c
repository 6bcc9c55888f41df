/*
 * A sweep's points validated, read again in full where needed (load_sweep.h).
 */
#include "config.h"

#include <stdlib.h>

#include "load.h"
#include "load_sweep.h"
#include "model_derive.h"
#include "mod_cache.h"
#include "monotime.h"
#include "validate.h"

bool sweep_validate(struct sweep *sw, struct diag *d, const struct mod_settings *msp)
{
	bool ok = true;
	const char *prefix = d->prefix;
	/* the points list each module file once (mod_cache.h) */
	struct mod_settings ms_sweep, *ms = NULL;
	struct mod_cache *cache = NULL;
	if (msp) {
		ms_sweep = *msp;
		if (ms_sweep.cache == NULL && sw->npoints > 1)
			ms_sweep.cache = cache = mod_cache_new();
		ms = &ms_sweep;
	}
	/* per point: valid without a warning, so that models derived from it can be checked alone */
	bool *clean = xcalloc(sw->npoints, sizeof *clean);
	for (size_t k = 0; k < sw->npoints; k++) {
		if (sw->models[k] == NULL) {
			ok = false;
			continue;
		}
		d->prefix = sweep_point_prefix(sw, k);
		double t = monotime();
		struct gdef *g = sw->models[k];
		if (g->derive && sw->base && clean[sw->base[k]] && gdef_validate_derived(g, d)) {
			if (sw->eval_s)
				sw->eval_s[k] += monotime() - t;
			continue;
		}
		if (g->derive) {
			sw->models[k] = sweep_reload(sw, k, d);
			sw->base[k] = k;
			derive_free(g);
			if (sw->models[k] == NULL) {
				ok = false;
				continue;
			}
		}
		unsigned warnings = d->nwarnings;
		bool valid = gdef_validate_with(sw->models[k], d, ms);
		clean[k] = valid && d->nwarnings == warnings;
		ok &= valid;
		if (sw->eval_s)
			sw->eval_s[k] += monotime() - t;
	}
	free(clean);
	d->prefix = prefix;
	mod_cache_free(cache);
	return ok;
}
