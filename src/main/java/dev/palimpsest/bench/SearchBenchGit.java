package dev.palimpsest.bench;

import dev.palimpsest.internal.git.GitRepo;
import dev.palimpsest.internal.git.Snapshot;
import dev.palimpsest.internal.layout.StorePaths;
import dev.palimpsest.internal.yaml.CanonicalFacts;
import dev.palimpsest.model.Fact;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.PathFilterGroup;
import org.eclipse.jgit.treewalk.filter.TreeFilter;

/** Git-side helpers of {@link SearchBench}: a commit's changes as the writer hands them, and the rebuild-per-query scan. Stateless. */
final class SearchBenchGit {
    private SearchBenchGit() {}

    static boolean isFactPath(String path) {
        for (String f : StorePaths.FACT_FOLDERS) {
            if (path.startsWith(f + "/")) {
                return true;
            }
        }
        return false;
    }

    /** Every path {@code c} changed against its first parent: the new blob, null when removed. */
    static Map<String, ObjectId> changes(ObjectReader reader, RevWalk walk, RevCommit c) throws IOException {
        Map<String, ObjectId> out = new HashMap<>();
        try (TreeWalk tw = new TreeWalk(reader)) {
            tw.setRecursive(true);
            tw.setFilter(TreeFilter.ANY_DIFF);
            tw.addTree(walk.parseCommit(c.getParent(0)).getTree());
            tw.addTree(c.getTree());
            while (tw.next()) {
                out.put(tw.getPathString(), (tw.getRawMode(1) & FileMode.TYPE_MASK) == FileMode.TYPE_FILE
                        ? tw.getObjectId(1) : null);
            }
        }
        return out;
    }

    /** Decodes every fact at {@code c} into a fresh in-memory index and runs one BM25 query. */
    static int scanSearch(GitRepo repo, ObjectId c, String word) throws IOException {
        try (ByteBuffersDirectory d = new ByteBuffersDirectory();
                IndexWriter w = new IndexWriter(d, new IndexWriterConfig(
                        new StandardAnalyzer(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET)));
                RevWalk walk = new RevWalk(repo.repository()); ObjectReader reader = repo.newReader();
                TreeWalk tw = new TreeWalk(reader)) {
            tw.setRecursive(true);
            tw.setFilter(PathFilterGroup.createFromStrings(StorePaths.FACT_FOLDERS));
            tw.addTree(walk.parseCommit(c).getTree());
            while (tw.next()) {
                Fact f;
                try {
                    f = CanonicalFacts.fact(reader.open(tw.getObjectId(0)).getCachedBytes(Snapshot.MAX_READ),
                            tw.getPathString());
                } catch (Exception e) {
                    continue;
                }
                Document doc = new Document();
                doc.add(new StringField("id", f.id().value(), Field.Store.YES));
                doc.add(new TextField("text", f.body(), Field.Store.NO));
                w.addDocument(doc);
            }
            w.commit();
            try (DirectoryReader r = DirectoryReader.open(d)) {
                BooleanQuery q = new BooleanQuery.Builder()
                        .add(new TermQuery(new Term("text", word)), BooleanClause.Occur.SHOULD).build();
                return new IndexSearcher(r).search(q, 10).scoreDocs.length;
            }
        }
    }

}
