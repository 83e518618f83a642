using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using System.Reflection.Emit;
using System.Runtime.CompilerServices;
using Jint;
using Jint.Native;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Internals;

/// <summary>
/// The property-table reader: IL compiled once per process, used once the PropertyTables probe agreed.
/// </summary>
internal static partial class JintInternals
{
    // The cache lines after a table that ReadTable has fetched: a kilobyte, a small table's nodes and values.
    private const int TableLines = 16;

    // The compiled reader, set by the PropertyTables probe before it checks it.
    private static TableReader? s_tableReader;

    // Reads a property table (a HybridDictionary<PropertyDescriptor>) in its enumeration order: of its enumerable
    // entries, the names and descriptors that fit into the array from start on, and how many there are; and the kinds
    // of all its names, enumerable or not.
    private delegate int TableReader(object table, TableEntry[] entries, int start, out TableNameKinds kinds);

    /// <summary>
    /// Reads the property table of a plain object in dictionary mode (no hidden class) onto
    /// <paramref name="tables"/>: its enumerable string-keyed properties in [[OwnPropertyKeys]] order, without a
    /// JsString per key. Only once the PropertyTables assumption holds. With <paramref name="fetchAhead"/>, the
    /// processor is first asked to fetch the memory after the table (<see cref="ReadAhead.After"/>).
    /// </summary>
    // Inlined into the reader's ReadTable, and so into the walker's read of a row: one call less per table.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static TableSegment ReadTable(JsObject o, TableStack tables, bool fetchAhead)
    {
        Debug.Assert(GetShape(o) is null, "an object in dictionary mode");
        Debug.Assert(s_tableReader is not null, "the PropertyTables probe compiled the reader");
        TableReader reader = s_tableReader!;
        object? table = PropertyTable(o);
        int read = 0;
        TableNameKinds kinds = TableNameKinds.None;
        if (table is not null)
        {
            if (fetchAhead)
            {
                ReadAhead.After(table, TableLines);
            }

            read = reader(table, tables.Entries, tables.Top, out kinds);
            if (read > tables.Room)
            {
                tables.EnsureRoom(read);
                read = reader(table, tables.Entries, tables.Top, out kinds);
            }
        }

        return tables.Push(read, kinds);
    }

    // A HybridDictionary<PropertyDescriptor> keeps its entries in a ListDictionary (private _list) while it is small
    // and in a StringDictionarySlim (internal _dictionary) after that. The list is a chain of nodes (private _head;
    // each node's public Key, Value and Next), in insertion order; the dictionary keeps its entries in an array of
    // struct slots (private _entries and _count), which Jint 4.16.4 to 4.18 use as a ring starting at _firstIndex, a
    // removed slot's next being RemovedSlot, and earlier 4.16 releases as a plain array from its first slot, a removed
    // slot's next being below -1 (a tombstone, or a link of the free list). Key.Name (internal) is the key's string.
    // Reading them directly, rather than through the enumerators, saves a call and a copy per property. These are
    // members of internal generic types, which [UnsafeAccessor] cannot name, so a delegate is compiled once, for the
    // layout the release has; the PropertyTables probe compiles it and checks it.
    private const int RemovedSlot = -2;

    // Emitted as IL into a DynamicMethod that may read private fields, which compiles far faster at the first table
    // than an expression tree would. It finds Jint's types and fields by name: where trimming has removed one, or code
    // cannot be compiled at run time, it throws, and the probe that calls it turns the table reader off.
    [RequiresDynamicCode("Compiles the table reader into a DynamicMethod.")]
    [RequiresUnreferencedCode("Finds Jint's internal types and fields by name.")]
    private static TableReader CompileTableReader()
    {
        const BindingFlags Instance = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;
        Assembly jint = typeof(Engine).Assembly;
        Type tableType = jint.GetType("Jint.Collections.HybridDictionary`1", throwOnError: true)!.MakeGenericType(typeof(PropertyDescriptor));
        FieldInfo keyName = jint.GetType("Jint.Key", throwOnError: true)!.GetField("Name", Instance) ?? throw new MissingFieldException("Jint.Key", "Name");
        FieldInfo list = tableType.GetField("_list", Instance) ?? throw new MissingFieldException(tableType.Name, "_list");
        FieldInfo dictionary = tableType.GetField("_dictionary", Instance) ?? throw new MissingFieldException(tableType.Name, "_dictionary");
        FieldInfo head = list.FieldType.GetField("_head", Instance) ?? throw new MissingFieldException(list.FieldType.Name, "_head");
        Type nodeType = head.FieldType;
        FieldInfo nodeKey = nodeType.GetField("Key", Instance) ?? throw new MissingFieldException(nodeType.Name, "Key");
        FieldInfo nodeValue = nodeType.GetField("Value", Instance) ?? throw new MissingFieldException(nodeType.Name, "Value");
        FieldInfo nodeNext = nodeType.GetField("Next", Instance) ?? throw new MissingFieldException(nodeType.Name, "Next");
        Type dictionaryType = dictionary.FieldType;
        FieldInfo slotsField = dictionaryType.GetField("_entries", Instance) ?? throw new MissingFieldException(dictionaryType.Name, "_entries");
        FieldInfo? firstField = dictionaryType.GetField("_firstIndex", Instance);
        bool ring = firstField is not null;

        FieldInfo countField = dictionaryType.GetField("_count", Instance) ?? throw new MissingFieldException(dictionaryType.Name, "_count");
        Type slotType = slotsField.FieldType.GetElementType() ?? throw new MissingFieldException(dictionaryType.Name, "_entries");
        FieldInfo slotKey = slotType.GetField("key", Instance) ?? throw new MissingFieldException(slotType.Name, "key");
        FieldInfo slotValue = slotType.GetField("value", Instance) ?? throw new MissingFieldException(slotType.Name, "value");
        FieldInfo slotNext = slotType.GetField("next", Instance) ?? throw new MissingFieldException(slotType.Name, "next");

        // The shapes the IL below assumes: classes for the table, its list, its nodes and its dictionary, structs for
        // a key and a slot, ints for the ring's indexes, and descriptors for the values.
        if (tableType.IsValueType || list.FieldType.IsValueType || nodeType.IsValueType || dictionaryType.IsValueType
            || !keyName.DeclaringType!.IsValueType || nodeKey.FieldType != keyName.DeclaringType || slotKey.FieldType != keyName.DeclaringType
            || keyName.FieldType != typeof(string) || nodeNext.FieldType != nodeType
            || nodeValue.FieldType != typeof(PropertyDescriptor) || slotValue.FieldType != typeof(PropertyDescriptor)
            || !slotType.IsValueType || (ring && firstField!.FieldType != typeof(int)) || countField.FieldType != typeof(int) || slotNext.FieldType != typeof(int))
        {
            throw new MissingFieldException(tableType.Name, "the table layout of Jint 4.16 to 4.18");
        }

        // The first parameter is the delegate's target and goes unused: a delegate closed over its first argument calls
        // the method directly, where an open static one goes through a shuffle thunk on every call.
        var method = new DynamicMethod(
            "ReadPropertyTable",
            typeof(int),
            [typeof(object), typeof(object), typeof(TableEntry[]), typeof(int), typeof(TableNameKinds).MakeByRefType()],
            typeof(JintInternals).Module,
            skipVisibility: true);
        FieldInfo entryName = typeof(TableEntry).GetField(nameof(TableEntry.Name))!;
        FieldInfo entryDescriptor = typeof(TableEntry).GetField(nameof(TableEntry.Descriptor))!;
        MethodInfo kindOf = typeof(TableEntry).GetMethod(nameof(TableEntry.KindOf))!;
        MethodInfo isEnumerable = typeof(PropertyDescriptor).GetProperty(nameof(PropertyDescriptor.Enumerable))!.GetMethod!;
        ILGenerator il = method.GetILGenerator();
        LocalBuilder count = il.DeclareLocal(typeof(int));
        LocalBuilder kinds = il.DeclareLocal(typeof(int));
        LocalBuilder name = il.DeclareLocal(typeof(string));
        LocalBuilder descriptor = il.DeclareLocal(typeof(PropertyDescriptor));
        LocalBuilder typed = il.DeclareLocal(tableType);
        LocalBuilder node = il.DeclareLocal(nodeType);
        LocalBuilder source = il.DeclareLocal(dictionaryType);
        LocalBuilder slots = il.DeclareLocal(slotsField.FieldType);
        LocalBuilder mask = il.DeclareLocal(typeof(int));
        LocalBuilder i = il.DeclareLocal(typeof(int));
        LocalBuilder left = il.DeclareLocal(typeof(int));
        Label end = il.DefineLabel();

        // var typed = (HybridDictionary<PropertyDescriptor>)table; var count = 0, kinds = 0 (locals start at zero);
        il.Emit(OpCodes.Ldarg_1);
        il.Emit(OpCodes.Castclass, tableType);
        il.Emit(OpCodes.Stloc, typed);

        // The dictionary's entries, in the order its enumerator lists them: a ring of slots (its length a power of two)
        // from _firstIndex on, _count of them in use, skipping slots whose next is RemovedSlot; or, without a ring, the
        // slots from the first on (a mask of all ones never wraps), skipping those whose next is below -1.
        // var source = typed._dictionary; if (source != null) {
        //     var slots = source._entries; var mask = slots.Length - 1; var i = source._firstIndex;
        //     for (var left = source._count; left > 0; left--) {
        //         while (slots[i].next == RemovedSlot) i = (i + 1) & mask;
        //         Store(slots[i].key.Name, slots[i].value); i = (i + 1) & mask; } }
        Label readList = il.DefineLabel();
        Label ringLoop = il.DefineLabel();
        Label skipRemoved = il.DefineLabel();
        Label found = il.DefineLabel();
        AssignField(source, typed, dictionary);
        il.Emit(OpCodes.Ldloc, source);
        il.Emit(OpCodes.Brfalse, readList);
        AssignField(slots, source, slotsField);
        if (ring)
        {
            il.Emit(OpCodes.Ldloc, slots);
            il.Emit(OpCodes.Ldlen);
            il.Emit(OpCodes.Conv_I4);
            il.Emit(OpCodes.Ldc_I4_1);
            il.Emit(OpCodes.Sub);
            il.Emit(OpCodes.Stloc, mask);
            AssignField(i, source, firstField!);
        }
        else
        {
            il.Emit(OpCodes.Ldc_I4_M1);
            il.Emit(OpCodes.Stloc, mask);
        }

        AssignField(left, source, countField);
        il.MarkLabel(ringLoop);
        il.Emit(OpCodes.Ldloc, left);
        il.Emit(OpCodes.Ldc_I4_0);
        il.Emit(OpCodes.Ble, end);
        il.MarkLabel(skipRemoved);
        LoadSlotAddress();
        il.Emit(OpCodes.Ldfld, slotNext);
        if (ring)
        {
            il.Emit(OpCodes.Ldc_I4, RemovedSlot);
            il.Emit(OpCodes.Bne_Un, found);
        }
        else
        {
            il.Emit(OpCodes.Ldc_I4_M1);
            il.Emit(OpCodes.Bge, found);
        }

        Step();
        il.Emit(OpCodes.Br, skipRemoved);
        il.MarkLabel(found);
        Store(
            () =>
            {
                LoadSlotAddress();
                il.Emit(OpCodes.Ldflda, slotKey);
                il.Emit(OpCodes.Ldfld, keyName);
            },
            () =>
            {
                LoadSlotAddress();
                il.Emit(OpCodes.Ldfld, slotValue);
            });
        Step();
        il.Emit(OpCodes.Ldloc, left);
        il.Emit(OpCodes.Ldc_I4_1);
        il.Emit(OpCodes.Sub);
        il.Emit(OpCodes.Stloc, left);
        il.Emit(OpCodes.Br, ringLoop);

        // Otherwise the list, in insertion order: for (var node = typed._list?._head; node != null; node = node.Next)
        // Store(node.Key.Name, node.Value);
        Label hasList = il.DefineLabel();
        Label nodeLoop = il.DefineLabel();
        il.MarkLabel(readList);
        il.Emit(OpCodes.Ldloc, typed);
        il.Emit(OpCodes.Ldfld, list);
        il.Emit(OpCodes.Dup);
        il.Emit(OpCodes.Brtrue, hasList);
        il.Emit(OpCodes.Pop);
        il.Emit(OpCodes.Br, end);
        il.MarkLabel(hasList);
        il.Emit(OpCodes.Ldfld, head);
        il.Emit(OpCodes.Stloc, node);
        il.MarkLabel(nodeLoop);
        il.Emit(OpCodes.Ldloc, node);
        il.Emit(OpCodes.Brfalse, end);
        Store(
            () =>
            {
                il.Emit(OpCodes.Ldloc, node);
                il.Emit(OpCodes.Ldflda, nodeKey);
                il.Emit(OpCodes.Ldfld, keyName);
            },
            () =>
            {
                il.Emit(OpCodes.Ldloc, node);
                il.Emit(OpCodes.Ldfld, nodeValue);
            });
        AssignField(node, node, nodeNext);
        il.Emit(OpCodes.Br, nodeLoop);

        // kinds (out) = the kinds seen; return count;
        il.MarkLabel(end);
        il.Emit(OpCodes.Ldarg_S, (byte)4);
        il.Emit(OpCodes.Ldloc, kinds);
        il.Emit(OpCodes.Stind_I4);
        il.Emit(OpCodes.Ldloc, count);
        il.Emit(OpCodes.Ret);
        return method.CreateDelegate<TableReader>(method);

        // var name = <name>; var descriptor = <descriptor>; kinds |= TableEntry.KindOf(name);
        // if (descriptor.Enumerable) { if (start + count < entries.Length) {
        //     if ((object)entries[start + count].Name != name) entries[start + count].Name = name;
        //     entries[start + count].Descriptor = descriptor; } count++; }
        // The fields are assigned in place: the array holds structs, so no store needs a covariance check. The rows
        // of a table built in script share their key strings and are read one after another at the same place on the
        // stack (the last row's entries stay there until the call ends), so the name is mostly there already: the
        // compare skips a write barrier per property.
        void Store(Action pushName, Action pushDescriptor)
        {
            Label full = il.DefineLabel();
            Label skip = il.DefineLabel();
            pushName();
            il.Emit(OpCodes.Stloc, name);
            pushDescriptor();
            il.Emit(OpCodes.Stloc, descriptor);
            il.Emit(OpCodes.Ldloc, kinds);
            il.Emit(OpCodes.Ldloc, name);
            il.Emit(OpCodes.Call, kindOf);
            il.Emit(OpCodes.Or);
            il.Emit(OpCodes.Stloc, kinds);
            il.Emit(OpCodes.Ldloc, descriptor);
            il.Emit(OpCodes.Callvirt, isEnumerable);
            il.Emit(OpCodes.Brfalse, skip);
            LoadIndex();
            il.Emit(OpCodes.Ldarg_2);
            il.Emit(OpCodes.Ldlen);
            il.Emit(OpCodes.Conv_I4);
            il.Emit(OpCodes.Bge, full);
            Label nameThere = il.DefineLabel();
            LoadEntryAddress();
            il.Emit(OpCodes.Ldfld, entryName);
            il.Emit(OpCodes.Ldloc, name);
            il.Emit(OpCodes.Beq, nameThere);
            LoadEntryAddress();
            il.Emit(OpCodes.Ldloc, name);
            il.Emit(OpCodes.Stfld, entryName);
            il.MarkLabel(nameThere);
            LoadEntryAddress();
            il.Emit(OpCodes.Ldloc, descriptor);
            il.Emit(OpCodes.Stfld, entryDescriptor);
            il.MarkLabel(full);
            il.Emit(OpCodes.Ldloc, count);
            il.Emit(OpCodes.Ldc_I4_1);
            il.Emit(OpCodes.Add);
            il.Emit(OpCodes.Stloc, count);
            il.MarkLabel(skip);
        }

        // local = from.field
        void AssignField(LocalBuilder local, LocalBuilder from, FieldInfo field)
        {
            il.Emit(OpCodes.Ldloc, from);
            il.Emit(OpCodes.Ldfld, field);
            il.Emit(OpCodes.Stloc, local);
        }

        // &entries[start + count]
        void LoadEntryAddress()
        {
            il.Emit(OpCodes.Ldarg_2);
            LoadIndex();
            il.Emit(OpCodes.Ldelema, typeof(TableEntry));
        }

        // start + count: where the next entry goes.
        void LoadIndex()
        {
            il.Emit(OpCodes.Ldarg_3);
            il.Emit(OpCodes.Ldloc, count);
            il.Emit(OpCodes.Add);
        }

        // &slots[i]
        void LoadSlotAddress()
        {
            il.Emit(OpCodes.Ldloc, slots);
            il.Emit(OpCodes.Ldloc, i);
            il.Emit(OpCodes.Ldelema, slotType);
        }

        // i = (i + 1) & mask: the next slot of the ring.
        void Step()
        {
            il.Emit(OpCodes.Ldloc, i);
            il.Emit(OpCodes.Ldc_I4_1);
            il.Emit(OpCodes.Add);
            il.Emit(OpCodes.Ldloc, mask);
            il.Emit(OpCodes.And);
            il.Emit(OpCodes.Stloc, i);
        }
    }
}
