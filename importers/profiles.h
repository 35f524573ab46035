/*
 * profiles: built-in manifests for the corpus layouts coreplan knows, and
 * layout detection. A profile is ordinary manifest text (manifest.h), so
 * `coreplan import --show-manifest` output can be copied, edited and passed
 * back with --manifest.
 */
#ifndef COREPLAN_PROFILES_H
#define COREPLAN_PROFILES_H

/* Manifest text of a built-in profile, or NULL. */
const char *profile_text(const char *name);

/*
 * The built-in profile that fits folder `dir`, or NULL. `why` gets a
 * sentence explaining what was looked for when nothing fits.
 */
const char *profile_detect(const char *dir, const char **why);

/* Names of the built-in profiles, NULL-terminated. */
extern const char *const profile_names[];

#endif
