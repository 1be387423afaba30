// The "Barcode" type: barcode 3-20 digits unique, item type enum, refund with 2 decimals, active default true.
export const BARCODE = {
  name: 'barcode',
  labels: { en: 'Barcodes', zh: '条码' },
  menuParent: 'systemSettings',
  fields: {
    code: {
      type: 'text',
      labels: { en: 'Barcode', zh: '条码' },
      required: true,
      minLength: 3,
      maxLength: 20,
      patterns: [{ regex: '^[0-9]+$', messages: { en: 'Digits only', zh: '只能是数字' } }],
      unique: true,
    },
    itemType: {
      type: 'enum',
      labels: { en: 'Item type', zh: '物品类型' },
      required: true,
      options: [
        { value: 'pet', labels: { en: 'PET bottle', zh: 'PET瓶' } },
        { value: 'can', labels: { en: 'Can', zh: '易拉罐' } },
      ],
    },
    refund: { type: 'number', labels: { en: 'Refund', zh: '退款' }, scale: 2, min: 0, max: 100 },
    active: { type: 'boolean', labels: { en: 'Active', zh: '启用' }, default: true },
  },
  list: {
    columns: ['code', 'itemType', 'refund', 'active'],
    filters: [
      { field: 'code', operator: 'like' },
      { field: 'itemType', operator: 'eq' },
      { field: 'refund', operator: 'range' },
    ],
    defaultSort: { field: 'code', order: 'ASC' },
  },
  actions: ['page', 'show', 'create', 'edit', 'delete', 'export'],
};
