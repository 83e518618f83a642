using System.Text.Json;

namespace JsonStringify.NativeAot;

/// <summary>testdata/v8-golden.json, recorded with Node 26 by tests/v8/record-golden.mjs (its header says what each
/// section holds), read with the checks of V8GoldenTests' and V8FuzzTests' loaders.</summary>
internal sealed record Golden(
    string NodeVersion,
    string V8Version,
    List<GoldenCase> Cases,
    List<GoldenCase> Fuzz,
    List<(string Bits, string Text)> Numbers,
    List<GoldenCorpus> Corpus)
{
    public static Golden Load(string path)
    {
        using JsonDocument document = JsonDocument.Parse(File.ReadAllBytes(path));
        JsonElement root = document.RootElement;

        // A case's result is V8's string, or the error's name where it threw; never null.
        var cases = root.GetProperty("cases").EnumerateArray()
            .Select(item => new GoldenCase(Text(item, "name"), Text(item, "script"), Text(item, "result"), Throws(item)))
            .ToList();

        // A fuzz case's result is null where V8's call returned undefined, and an error's name where it threw.
        var fuzz = root.GetProperty("fuzz").EnumerateArray().Select((item, i) =>
        {
            var fuzzCase = new GoldenCase($"fuzz case {i}", Text(item, "script"), item.GetProperty("result").GetString(), Throws(item));
            return fuzzCase.Throws && fuzzCase.Result is null
                ? throw new InvalidDataException($"{fuzzCase.Name} throws but has no error name in {path}")
                : fuzzCase;
        }).ToList();
        var numbers = root.GetProperty("numbers").EnumerateArray().Select(item => (Text(item, "bits"), Text(item, "text"))).ToList();
        var corpus = root.GetProperty("corpus").EnumerateArray()
            .Select(item => new GoldenCorpus(Text(item, "file"), ReadDigest(item, "compact"), ReadDigest(item, "indented")))
            .ToList();
        return new Golden(Text(root, "node"), Text(root, "v8"), cases, fuzz, numbers, corpus);
    }

    private static bool Throws(JsonElement item) => item.TryGetProperty("throws", out JsonElement throws) && throws.GetBoolean();

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
