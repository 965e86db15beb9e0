"""Parse and render bytes already read: frontmatter, index lines, the manifest, the name gate, bounded JSON."""
