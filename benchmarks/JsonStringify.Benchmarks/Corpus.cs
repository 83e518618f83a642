using Jint;
using Jint.Native;

namespace JsonStringify.Benchmarks;

/// <summary>
/// The documents of testdata/: the three classic ones, and the wider corpus of testdata/corpus/ (public documents and
/// documents generated with fixed seeds; testdata/README.md says where each comes from and what it stresses).
/// </summary>
public static class Corpus
{
    /// <summary>The classic documents, on which every scenario runs.</summary>
    public static IEnumerable<string> Files => ["canada.json", "citm_catalog.json", "twitter.json"];

    /// <summary>The wider corpus, one document of each real-world shape.</summary>
    public static IEnumerable<string> Wide =>
    [
        "corpus/lockfile.json", "corpus/openapi.json", "corpus/countries.json", "corpus/sourcemap.json",
        "corpus/geojson-streets.json", "corpus/webhook-schema.json", "corpus/licenses.json", "corpus/events.json",
        "corpus/settings.json", "corpus/emoji-ru.json", "corpus/trace.json", "corpus/notebook.json",
        "corpus/wide-records.json", "corpus/intkeys.json", "corpus/numbers.json", "corpus/counters.json",
        "corpus/permissions.json", "corpus/joblist.json",
    ];

    /// <summary>Every document: the classic ones, then the wider corpus.</summary>
    public static IEnumerable<string> All => Files.Concat(Wide);

    /// <summary>How a document that is any JSON file is named: this, then the file's path.</summary>
    public const string FilePrefix = "file:";

    /// <summary>Whether <paramref name="name"/> names a JSON file by its path (<see cref="FilePrefix"/>).</summary>
    public static bool IsFile(string name) => name.StartsWith(FilePrefix, StringComparison.Ordinal);

    /// <summary>The short name of a document: its path under testdata/ without the extension.</summary>
    public static string Name(string file) => Path.ChangeExtension(file, null);

    /// <summary>
    /// The document whose <see cref="Name"/> or file name is <paramref name="name"/>; for <see cref="FilePrefix"/> and
    /// a path, the full path of that file.
    /// </summary>
    public static string Find(string name)
    {
        if (IsFile(name))
        {
            string path = name[FilePrefix.Length..];
            return File.Exists(path) ? Path.GetFullPath(path) : throw new ArgumentException($"No file at '{path}'.", nameof(name));
        }

        return All.FirstOrDefault(file => Name(file) == name || Path.GetFileNameWithoutExtension(file) == name)
            ?? throw new ArgumentException($"No document named '{name}' in the corpus.", nameof(name));
    }

    /// <summary>
    /// A document that <see cref="Find"/> found: a file under testdata/, or a file's full path, which
    /// <see cref="Path.Combine(string, string, string)"/> returns as it is.
    /// </summary>
    public static string Read(string file) => File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "testdata", file));

    public static JsValue Parse(Engine engine, string json) =>
        engine.Evaluate("JSON.parse").Call(JsValue.Undefined, [new JsString(json)]);

    public static JsValue ParseFile(Engine engine, string file) => Parse(engine, Read(file));

    /// <summary>
    /// <paramref name="value"/> rebuilt in script by testdata/rebuild.js: <paramref name="build"/> is "assigned",
    /// "deleted", "Object.assign" or "class" (see the script).
    /// </summary>
    public static JsValue Rebuild(Engine engine, JsValue value, string build) =>
        engine.Evaluate(Read("rebuild.js")).Call(JsValue.Undefined, [value, new JsString(build)]);
}
