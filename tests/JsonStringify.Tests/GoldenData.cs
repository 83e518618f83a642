using System.Text.Json;

namespace JsonStringify.Tests;

/// <summary>
/// testdata/v8-golden.json, recorded with Node 26 by tests/v8/record-golden.mjs (its header says what each section
/// holds), read once for V8GoldenTests, V8FuzzTests, the tests that run the golden scripts through every output, and
/// the published replay (tests/NativeAot), into which this file is linked. Every section is in the file's order; the
/// cases' names are unique.
/// </summary>
internal sealed record GoldenData(
    string NodeVersion,
    string V8Version,
    IReadOnlyList<GoldenCase> Cases,
    IReadOnlyDictionary<string, GoldenCase> CasesByName,
    IReadOnlyList<GoldenCase> Fuzz,
    IReadOnlyList<GoldenNumber> Numbers,
    IReadOnlyList<GoldenCorpus> Corpus)
{
    /// <summary>The least number of recorded cases a complete golden file holds.</summary>
    public const int MinimumCases = 150;

    /// <summary>The least number of fuzz cases a complete golden file holds.</summary>
    public const int MinimumFuzzCases = 2000;

    /// <summary>The least number of recorded doubles a complete golden file holds.</summary>
    public const int MinimumNumbers = 20_000;

    /// <summary>The cases' names, in the file's order.</summary>
    public IEnumerable<string> CaseNames => Cases.Select(goldenCase => goldenCase.Name);

    /// <summary>The golden file as the tests and the replay have it: copied beside them, below testdata/.</summary>
    public static string FilePath => Path.Combine(AppContext.BaseDirectory, "testdata", "v8-golden.json");

    /// <summary>
    /// Every JSON document below testdata/ but the golden file itself, by its path below testdata/ with '/' between
    /// folders, in ordinal order: what record-golden.mjs records a digest of.
    /// </summary>
    public static List<string> TestdataDocuments()
    {
        string testdata = Path.Combine(AppContext.BaseDirectory, "testdata");
        return Directory.EnumerateFiles(testdata, "*.json", SearchOption.AllDirectories)
            .Select(path => Path.GetRelativePath(testdata, path).Replace(Path.DirectorySeparatorChar, '/'))
            .Where(file => file != "v8-golden.json")
            .Order(StringComparer.Ordinal)
            .ToList();
    }

    public static GoldenData Load(string path)
    {
        using JsonDocument document = JsonDocument.Parse(File.ReadAllBytes(path));
        JsonElement root = document.RootElement;

        // A case's result is V8's string, or the error's name where it threw; never null.
        var cases = root.GetProperty("cases").EnumerateArray()
            .Select(item => new GoldenCase(Text(item, "name", path), Text(item, "script", path), Text(item, "result", path), Throws(item)))
            .ToList();
        var casesByName = new Dictionary<string, GoldenCase>(StringComparer.Ordinal);
        foreach (GoldenCase goldenCase in cases)
        {
            if (!casesByName.TryAdd(goldenCase.Name, goldenCase))
            {
                throw new InvalidDataException($"two cases are named '{goldenCase.Name}' in {path}");
            }
        }

        var numbers = root.GetProperty("numbers").EnumerateArray()
            .Select(item => new GoldenNumber(Text(item, "bits", path), Text(item, "text", path)))
            .ToList();
        var corpus = root.GetProperty("corpus").EnumerateArray()
            .Select(item => new GoldenCorpus(Text(item, "file", path), Digest(item, "compact", path), Digest(item, "indented", path)))
            .ToList();
        return new GoldenData(Text(root, "node", path), Text(root, "v8", path), cases, casesByName, ReadFuzz(root, path), numbers, corpus);
    }

    /// <summary>
    /// The fuzz section alone: of the golden file, or of a longer fuzz run that record-golden.mjs wrote to V8_FUZZ_OUT,
    /// which has no other section.
    /// </summary>
    public static List<GoldenCase> LoadFuzz(string path)
    {
        using JsonDocument document = JsonDocument.Parse(File.ReadAllBytes(path));
        return ReadFuzz(document.RootElement, path);
    }

    // A fuzz case's result is null where V8's call returned undefined, and the error's name where it threw; its name is
    // its place in the section.
    private static List<GoldenCase> ReadFuzz(JsonElement root, string path) =>
        root.GetProperty("fuzz").EnumerateArray().Select((item, i) =>
        {
            var fuzz = new GoldenCase($"fuzz case {i}", Text(item, "script", path), item.GetProperty("result").GetString(), Throws(item));
            return fuzz.Throws && fuzz.Result is null
                ? throw new InvalidDataException($"{fuzz.Name} throws but has no error name in {path}")
                : fuzz;
        }).ToList();

    private static bool Throws(JsonElement item) => item.TryGetProperty("throws", out JsonElement throws) && throws.GetBoolean();

    private static GoldenDigest Digest(JsonElement item, string form, string path)
    {
        JsonElement digest = item.GetProperty(form);
        return new GoldenDigest(Text(digest, "sha256", path), digest.GetProperty("length").GetInt32());
    }

    private static string Text(JsonElement item, string name, string path) =>
        item.GetProperty(name).GetString() ?? throw new InvalidDataException($"'{name}' is null in {path}");
}

/// <summary>
/// A recorded script and V8's outcome: <see cref="Result"/> is the string it made, null where its value was undefined
/// (fuzz cases only), or, where it <see cref="Throws"/>, the name of the error it threw.
/// </summary>
internal sealed record GoldenCase(string Name, string Script, string? Result, bool Throws);

/// <summary>A double's IEEE-754 bits (16 hex digits) and V8's text for it.</summary>
internal sealed record GoldenNumber(string Bits, string Text);

/// <summary>The SHA-256 (hex, over UTF-8) and UTF-16 length of V8's text for a document.</summary>
internal sealed record GoldenDigest(string Sha256, int Length);

/// <summary>A document below testdata/ by its path there, with V8's text compact and with space 2.</summary>
internal sealed record GoldenCorpus(string File, GoldenDigest Compact, GoldenDigest Indented);
