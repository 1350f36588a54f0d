/** The audit: every commit's signature, trust, identity, trailers and files checked again from history. */
package dev.palimpsest.internal.audit;
