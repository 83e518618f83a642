using System.Text.Json;

namespace JsonStringify.NativeAot;

/// <summary>testdata/v8-golden.json, recorded with Node 26 by tests/v8/record-golden.mjs (its header says what each
/// section holds).</summary>
internal sealed record Golden(
    List<GoldenCase> Cases,
    List<GoldenCase> Fuzz,
    List<(string Bits, string Text)> Numbers,
    List<GoldenCorpus> Corpus)
{
    public static Golden Load(string path)
    {
        using JsonDocument document = JsonDocument.Parse(File.ReadAllBytes(path));
        JsonElement root = document.RootElement;
        var cases = root.GetProperty("cases").EnumerateArray().Select(item => ReadCase(item, Text(item, "name"))).ToList();
        var fuzz = root.GetProperty("fuzz").EnumerateArray().Select((item, i) => ReadCase(item, $"fuzz case {i}")).ToList();
        var numbers = root.GetProperty("numbers").EnumerateArray().Select(item => (Text(item, "bits"), Text(item, "text"))).ToList();
        var corpus = root.GetProperty("corpus").EnumerateArray()
            .Select(item => new GoldenCorpus(Text(item, "file"), ReadDigest(item, "compact"), ReadDigest(item, "indented")))
            .ToList();
        return new Golden(cases, fuzz, numbers, corpus);
    }

    // Result is V8's string, null where the script's value was undefined (fuzz cases only), or the error's name where
    // it threw.
    private static GoldenCase ReadCase(JsonElement item, string name) => new(
        name,
        Text(item, "script"),
        item.GetProperty("result").GetString(),
        item.TryGetProperty("throws", out JsonElement throws) && throws.GetBoolean());

    private static GoldenDigest ReadDigest(JsonElement item, string form)
    {
        JsonElement digest = item.GetProperty(form);
        return new GoldenDigest(Text(digest, "sha256"), digest.GetProperty("length").GetInt32());
    }

    private static string Text(JsonElement item, string name) =>
        item.GetProperty(name).GetString() ?? throw new InvalidDataException($"'{name}' is null in v8-golden.json");
}

internal sealed record GoldenCase(string Name, string Script, string? Result, bool Throws);

internal sealed record GoldenDigest(string Sha256, int Length);

internal sealed record GoldenCorpus(string File, GoldenDigest Compact, GoldenDigest Indented);
