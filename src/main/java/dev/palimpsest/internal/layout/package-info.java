/** Where each kind of file lives in a store's tree: the path functions of store-layout.md. */
package dev.palimpsest.internal.layout;
